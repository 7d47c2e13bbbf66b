/**
 * @module http/session-swap
 * Moves a live 2025 session onto a server instance built from a new catalogue, keeping its id,
 * its transport and its streams, so a reload (`HostApp.reload`) costs the client nothing but the
 * list_changed notifications it is sent. The SDK connects one instance to one transport for life
 * and a transport starts once, so the new instance is connected to a forwarding transport in front
 * of the real one; the real one hands it every later message. The new instance then hears the
 * session's own `initialize` again, and the requests that set per-session state (log level,
 * resource subscriptions) in the order the client sent them, answered to nobody. Calls already
 * running finish on the instance they started on. Test: `reload.http.test.ts`.
 */
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type {
  AuthInfo,
  JSONRPCMessage,
  JSONRPCRequest,
  McpServer,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';

/** Requests whose effect lives on the instance for the rest of the session, so a new one must hear them. */
const SESSION_STATE_METHODS = new Set(['logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);
/** Bounds the record of one session: a subscribe and its unsubscribe replace each other by URI. */
const MAX_RECORDED_REQUESTS = 256;
/** How long a replayed request may take on the new instance; they are in-memory bookkeeping. */
const REPLAY_TIMEOUT_MS = 5_000;
/** Marks the replayed requests' ids, so their answers never reach the client. */
const REPLAY_ID_PREFIX = 'mcp-host-replay:';

interface Recorded {
  message: JSONRPCRequest;
  authInfo: AuthInfo | undefined;
}

/** What a session's client said that its server instance keeps: what a new instance must hear again. */
export class SessionRecord {
  #initialize: Recorded | undefined;
  readonly #state = new Map<string, Recorded>();

  /** Notes the requests of one POST body (one message or a batch) that set per-session state. */
  note(body: unknown, authInfo: AuthInfo | undefined): void {
    for (const message of Array.isArray(body) ? body : [body]) {
      if (!isRequest(message)) continue;
      if (message.method === 'initialize') this.#initialize = { message, authInfo };
      if (!SESSION_STATE_METHODS.has(message.method)) continue;
      const key = stateKey(message);
      // Re-inserted, so the map keeps the order the client last set each piece of state in.
      this.#state.delete(key);
      if (this.#state.size >= MAX_RECORDED_REQUESTS) continue;
      this.#state.set(key, { message, authInfo });
    }
  }

  get initialize(): Recorded | undefined {
    return this.#initialize;
  }

  get state(): Recorded[] {
    return [...this.#state.values()];
  }
}

/** One entry per piece of state: the log level, or one URI's subscription (subscribe and unsubscribe share it). */
function stateKey(message: JSONRPCRequest): string {
  if (message.method === 'logging/setLevel') return message.method;
  const uri = (message.params as { uri?: unknown } | undefined)?.uri;
  return `resources:${typeof uri === 'string' ? uri : ''}`;
}

function isReplayId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith(REPLAY_ID_PREFIX);
}

function isRequest(message: unknown): message is JSONRPCRequest {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { method?: unknown }).method === 'string' &&
    'id' in message
  );
}

/**
 * Connects `next` to the session behind `transport` and replays what `record` holds into it.
 * `onclose` is the host's own close handler for the session: from here on it runs with `next`'s.
 * Rejects (leaving the old instance serving) when the replayed `initialize` fails.
 */
export async function swapSessionServer(
  transport: NodeStreamableHTTPServerTransport,
  next: McpServer,
  record: SessionRecord,
  onclose: () => void,
): Promise<void> {
  const initialize = record.initialize;
  if (!initialize) throw new Error('The session has no recorded initialize to replay.');
  const pending = new Map<string, (message: JSONRPCMessage) => void>();
  const forward = new ForwardingTransport(transport, pending);
  await next.connect(forward);

  let replayed = 0;
  const replay = (entry: Recorded) =>
    new Promise<JSONRPCMessage>((resolve, reject) => {
      const id = `${REPLAY_ID_PREFIX}${++replayed}`;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`The new server instance did not answer the replayed ${entry.message.method}.`));
      }, REPLAY_TIMEOUT_MS);
      pending.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      forward.onmessage?.(
        { ...entry.message, id },
        entry.authInfo ? { authInfo: entry.authInfo } : undefined,
      );
    });

  const answer = await replay(initialize);
  if ('error' in answer) {
    await next.close().catch(() => undefined);
    throw new Error(`The new server instance refused the session's initialize: ${answer.error.message}`);
  }
  forward.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
  // From here the real transport hands its messages, and its close, to the new instance.
  transport.onmessage = (message, extra) => forward.onmessage?.(message, extra);
  transport.onerror = (error) => forward.onerror?.(error);
  transport.onclose = () => {
    onclose();
    forward.onclose?.();
  };
  for (const entry of record.state) await replay(entry).catch(() => undefined);
}

/**
 * The transport the new instance is connected to: it starts at once (the real one already has),
 * sends through the real one, and keeps the answers to replayed requests for the replay.
 */
class ForwardingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly real: NodeStreamableHTTPServerTransport,
    private readonly pending: Map<string, (message: JSONRPCMessage) => void>,
  ) {}

  get sessionId(): string | undefined {
    return this.real.sessionId;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // Nothing said while answering a replayed request has a client request to go out with.
    if (isReplayId(options?.relatedRequestId)) return;
    const id = 'id' in message ? message.id : undefined;
    if (isReplayId(id) && !('method' in message)) {
      this.pending.get(id)?.(message);
      this.pending.delete(id);
      return;
    }
    return this.real.send(message, options);
  }

  close(): Promise<void> {
    return this.real.close();
  }
}
