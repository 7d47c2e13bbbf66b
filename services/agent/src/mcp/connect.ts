/**
 * @module mcp/connect
 * Connects to one MCP server (Streamable HTTP or stdio) with the official v2 client: modern
 * protocol first with fallback to the 2025 handshake, retries with backoff while the server is
 * still starting, and lists its tools and skills. `hub.ts` puts several connections behind one interface.
 */
import {
  Client,
  type ElicitResult,
  StreamableHTTPClientTransport,
  type Transport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { SKILLS_EXTENSION_ID } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { Logger } from 'pino';
import type { McpClientTracing } from '../telemetry/types.js';
import type {
  DiscoveredTool,
  InputAnswer,
  InputHandler,
  InputRequest,
  JsonSchema,
  LogEvent,
  ServerInfo,
  SignedInAs,
} from '../types.js';
import { UI_EXTENSION_ID, VIEW_MIME_TYPE } from '../views/ui-meta.js';
import { describeTarget, type OAuthClientCredentials, type ServerSpec } from './config.js';
import { listServerTools, MAX_TOOL_LIST_PAGES } from './discover.js';
import {
  type LoopbackCallback,
  PersonSignIn,
  SIGN_IN_TIMEOUT_MS,
  startLoopbackCallback,
} from './person-sign-in.js';
import { RenewingClientCredentials } from './renewing-credentials.js';
import {
  backoffDelayMs,
  connectFailureMessage,
  DEFAULT_CONNECT_RETRY,
  describeCause,
  isRetryable,
  McpConnectError,
  type RetryPolicy,
  sleep,
} from './retry.js';
import { discoverSkills, type ServerSkills, summarizeSkill } from './skills.js';
import { surfaceTaskResults } from './task-handoff.js';

/** The logger methods this module uses; a pino logger fits. */
export type McpLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

/**
 * Limit for one connection attempt (the era probe plus the handshake). Over HTTP a server that
 * accepted the connection but does not answer is broken, so 10 s is plenty. A stdio server may be
 * fetched by `npx` on first use, which can take much longer.
 */
export const CONNECT_TIMEOUT_MS = { http: 10_000, stdio: 60_000 } as const;

/**
 * Limit for the `server/discover` probe alone. On stdio, silence means a 2025-era server that
 * ignores unknown requests before `initialize`, so the fallback should not wait a whole minute.
 */
export const PROBE_TIMEOUT_MS = 10_000;

/** How many of a stdio server's last stderr lines a start-up error quotes. */
export const STDERR_TAIL_LINES = 10;
/** Longer stderr lines are cut: one runaway line must not flood the log or the error. */
export const MAX_STDERR_LINE_LENGTH = 500;

/** A log notification as the server sent it; the hub adds the time within the call. */
export type LogMessage = Omit<LogEvent, 'atMs'>;

/** What the hub hooks into on a connection. */
/** The lists whose changes the agent follows: tools for the model, resources for the views. */
export type ListKind = 'tools' | 'resources';

export interface ServerHooks {
  /** Set when the server says its tool list changed; the hub clears it when it lists again. */
  toolsChanged: boolean;
  /** Hears each `list_changed` of tools or resources as it comes (the hub passes it on to the page). */
  onListChanged?: (kind: ListKind) => void;
  /** Receives every `notifications/message` the server sends. */
  onLog?: (message: LogMessage) => void;
  /** Hears each request for input once it is answered, so the hub can put it in the call's trace. */
  onInput?: (request: InputRequest, answer: InputAnswer) => void;
}

/** A live connection to one MCP server. */
export interface ConnectedServer {
  readonly info: ServerInfo;
  readonly client: Client;
  /** The tools listed right after connecting (every page). */
  readonly tools: readonly DiscoveredTool[];
  /** The skills listed right after connecting, when the server declares the extension. */
  readonly skills?: ServerSkills;
  readonly hooks: ServerHooks;
  /** Ends a 2025-era HTTP session (so the server can free it) and closes the client; stops a stdio server. */
  close(): Promise<void>;
  /**
   * For a person's sign-in only: after a request was refused because the SDK sent the person to
   * sign in again (a token that expired for good, or a step-up to more scopes), waits for the
   * browser to come back and redeems the code. True when the request is worth sending again.
   */
  signInAgain?(signal?: AbortSignal): Promise<boolean>;
}

export interface ConnectOptions {
  clientInfo: { name: string; version: string; title?: string };
  /** Asked whenever a tool wants input from the person (elicitation). */
  onInput: InputHandler;
  logger: McpLogger;
  /** Defaults to {@link DEFAULT_CONNECT_RETRY}. */
  retry?: RetryPolicy;
  /** Stops connecting (including waits between attempts); the promise rejects with the abort reason. */
  signal?: AbortSignal;
  /**
   * Shows a person the link to sign in, for a server whose `oauth` has no secret (a public client,
   * authorization code with PKCE). Without it the link goes to the logger at warn level.
   */
  onSignIn?: (event: { server: string; url: string }) => void;
  /** With telemetry on: a client span per request, and its context in each request's `_meta`. */
  tracing?: McpClientTracing;
  /** How long to wait for the person to sign in; defaults to {@link SIGN_IN_TIMEOUT_MS}. */
  signInTimeoutMs?: number;
  /**
   * Hears that a sign-in shown through `onSignIn` is over: `user` is who signed in, unset when it
   * failed. The web page takes the link down then.
   */
  onSignInEnd?: (event: { server: string; user?: string }) => void;
}

/** A person's sign-in in progress: the SDK provider and the loopback listener it redirects to. */
interface PersonAuth {
  provider: PersonSignIn;
  callback: LoopbackCallback;
}

/** Connects to one server, retrying with exponential backoff, and lists its tools. */
export async function connectServer(spec: ServerSpec, options: ConnectOptions): Promise<ConnectedServer> {
  const retry = options.retry ?? DEFAULT_CONNECT_RETRY;
  const attempts = Math.max(1, Math.floor(retry.attempts));
  const target = describeTarget(spec);
  const stderrTail: string[] = [];
  let lastError: unknown;
  let made = 0;
  const person = await startPersonAuth(spec, options);
  let connected = false;
  try {
    while (made < attempts) {
      made++;
      try {
        const server = await connectOnce(spec, options, stderrTail, person);
        connected = true;
        return server;
      } catch (error) {
        lastError = error;
        options.signal?.throwIfAborted();
        if (made >= attempts || !isRetryable(error)) break;
        const delayMs = backoffDelayMs(made, retry);
        options.logger.warn(
          { server: spec.name, target, attempt: made, attempts, delayMs, reason: describeCause(error) },
          'MCP server not reachable yet; retrying',
        );
        await sleep(delayMs, options.signal);
      }
    }
  } finally {
    // A connected server keeps its listener for a later step-up; it closes with the server.
    if (!connected) await person?.callback.close();
  }
  throw new McpConnectError(
    connectFailureMessage(spec, target, made, lastError, stderrTail),
    spec.name,
    target,
    made,
    { cause: lastError },
  );
}

/** For an `oauth` entry without a secret: the listener the browser comes back to, and the provider. */
async function startPersonAuth(spec: ServerSpec, options: ConnectOptions): Promise<PersonAuth | undefined> {
  if (spec.transport !== 'http' || !spec.oauth || spec.oauth.clientSecret !== undefined) return undefined;
  const callback = await startLoopbackCallback();
  const provider = new PersonSignIn({
    ...(spec.oauth.clientId && { clientId: spec.oauth.clientId }),
    issuer: spec.oauth.issuer,
    ...(spec.oauth.scope && { scope: spec.oauth.scope }),
    redirectUrl: callback.redirectUrl,
    onSignInUrl: (url) => {
      if (options.onSignIn) options.onSignIn({ server: spec.name, url: url.href });
      else
        options.logger.warn(
          { server: spec.name, url: url.href },
          'sign in to the MCP server: open this link',
        );
    },
  });
  return { provider, callback };
}

async function connectOnce(
  spec: ServerSpec,
  options: ConnectOptions,
  stderrTail: string[],
  person?: PersonAuth,
  signedInJustNow = false,
): Promise<ConnectedServer> {
  const { logger } = options;
  // Only the last attempt's stderr explains the failure that gets reported.
  stderrTail.length = 0;
  const hooks: ServerHooks = { toolsChanged: false };
  const client = new Client(options.clientInfo, {
    // MCP Apps: the chat page draws a tool's `ui://` view, so servers may offer views and app-only tools.
    capabilities: {
      elicitation: { form: {} },
      // Skills: the agent lists a server's skills and lets the model read them (read-skill.ts).
      // Tasks: a 2026-07-28 server may answer a slow tools/call with a task, which the hub follows.
      extensions: {
        [UI_EXTENSION_ID]: { mimeTypes: [VIEW_MIME_TYPE] },
        [SKILLS_EXTENSION_ID]: {},
        [TASKS_EXTENSION_ID_V2]: {},
      },
    },
    // Probe with server/discover (2026-07-28) and fall back to `initialize` for 2025-era servers;
    // without it the v2 client only speaks 2025.
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: PROBE_TIMEOUT_MS } },
    listMaxPages: MAX_TOOL_LIST_PAGES,
    // Covers both eras: the unsolicited 2025 notification and, on a modern connection, a
    // `subscriptions/listen` stream the SDK opens when the server advertises tools.listChanged.
    // Only a flag is set: the hub re-lists between model turns, never in the middle of one.
    listChanged: {
      tools: {
        autoRefresh: false,
        debounceMs: 0,
        onChanged: () => {
          hooks.toolsChanged = true;
          logger.debug({ server: spec.name }, 'MCP server says its tool list changed');
          hooks.onListChanged?.('tools');
        },
      },
      // A view's HTML is a resource: the page is told so it can say a drawn view has changed.
      resources: {
        autoRefresh: false,
        debounceMs: 0,
        onChanged: () => hooks.onListChanged?.('resources'),
      },
    },
  });
  client.onerror = (error) => logger.debug({ server: spec.name, err: error }, 'MCP client error');
  options.tracing?.traceClient(client, spec);

  // In the 2026-07-28 era the SDK answers `input_required` results through this same handler.
  client.setRequestHandler('elicitation/create', async (request): Promise<ElicitResult> => {
    const params = request.params;
    if (params.mode === 'url') {
      logger.warn({ server: spec.name }, 'server asked for URL elicitation, which this agent does not offer');
      const refused: InputAnswer = { action: 'decline', notAsked: 'this agent cannot open a URL for you' };
      hooks.onInput?.({ server: spec.name, message: params.message, schema: {} }, refused);
      return { action: 'decline' };
    }
    const question: InputRequest = {
      server: spec.name,
      message: params.message,
      schema: params.requestedSchema as JsonSchema,
    };
    let answer: InputAnswer;
    try {
      answer = await options.onInput(question);
    } catch (error) {
      logger.warn({ server: spec.name, err: error }, 'asking for input failed; answering "cancel"');
      answer = { action: 'cancel' };
    }
    hooks.onInput?.(question, answer);
    return answer.action === 'accept'
      ? { action: 'accept', content: answer.content }
      : { action: answer.action };
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    const { level, logger: source, data } = notification.params;
    const message: LogMessage = { level, data, ...(source !== undefined && { logger: source }) };
    if (hooks.onLog) hooks.onLog(message);
    else logger.debug({ server: spec.name, ...message }, 'MCP server log');
  });

  // SDK 2.4.0 refuses a task as an answer; this lets it through to the hub (task-handoff.ts).
  const created = surfaceTaskResults(createTransport(spec, logger, stderrTail, person?.provider));
  const transport = options.tracing ? options.tracing.traceTransport(created) : created;
  try {
    await client.connect(transport, {
      timeout: CONNECT_TIMEOUT_MS[spec.transport],
      ...(options.signal && { signal: options.signal }),
    });
    const tools = await listServerTools(client, spec.name, options.signal ? { signal: options.signal } : {});
    const skills = await discoverSkills(client, spec.name, logger, options.signal);
    const info = serverInfo(spec, client, person?.provider, skills);
    logger.info(
      {
        server: spec.name,
        target: info.target,
        era: info.era,
        protocolVersion: info.protocolVersion,
        tools: tools.length,
      },
      'connected to MCP server',
    );
    const subscription = watchSubscription(client, spec.name, hooks, logger);
    return {
      info,
      client,
      tools,
      skills,
      hooks,
      async close() {
        subscription.closing();
        if (transport instanceof StreamableHTTPClientTransport && info.era === 'legacy') {
          await transport.terminateSession().catch(() => {});
        }
        await client.close();
        await person?.callback.close();
      },
      ...(person &&
        transport instanceof StreamableHTTPClientTransport && {
          signInAgain: async (signal?: AbortSignal) => {
            const signedIn = await finishSignIn(spec, options, person, transport, signal);
            // Signing in again may have been as someone else.
            const as = signedInAs(spec, person.provider);
            if (signedIn && as) info.signedInAs = as;
            return signedIn;
          },
        }),
    };
  } catch (error) {
    await client.close().catch(() => {});
    // A person must sign in: the SDK has shown the link (redirectToAuthorization). Wait for the
    // browser to come back, let the SDK redeem the code, then connect again, once.
    if (
      person &&
      !signedInJustNow &&
      error instanceof UnauthorizedError &&
      transport instanceof StreamableHTTPClientTransport
    ) {
      if (!(await finishSignIn(spec, options, person, transport, options.signal))) throw error;
      return connectOnce(spec, options, stderrTail, person, true);
    }
    throw error;
  }
}

/**
 * When the SDK has just sent the person to sign in: waits for the browser to come back to the
 * loopback listener, then lets the SDK redeem the code. False when no sign-in was started.
 */
async function finishSignIn(
  spec: ServerSpec,
  options: ConnectOptions,
  person: PersonAuth,
  transport: StreamableHTTPClientTransport,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const state = person.provider.expectedState;
  if (!person.provider.takeRedirect() || !state) return false;
  try {
    const params = await person.callback.next(state, options.signInTimeoutMs ?? SIGN_IN_TIMEOUT_MS, signal);
    await transport.finishAuth(params);
  } catch (error) {
    options.onSignInEnd?.({ server: spec.name });
    throw error;
  }
  const user = person.provider.signedInAs();
  options.logger.info({ server: spec.name, user }, 'signed in to the MCP server');
  options.onSignInEnd?.({ server: spec.name, ...(user && { user }) });
  return true;
}

function clientCredentials(oauth: OAuthClientCredentials, serverUrl: string): RenewingClientCredentials {
  return new RenewingClientCredentials({
    clientId: oauth.clientId ?? '',
    clientSecret: oauth.clientSecret ?? '',
    // The secret is sent to this authorization server only, whichever one the MCP server names.
    issuer: oauth.issuer,
    serverUrl,
    ...(oauth.scope && { scope: oauth.scope }),
  });
}

function createTransport(
  spec: ServerSpec,
  logger: McpLogger,
  stderrTail: string[],
  personProvider?: PersonSignIn,
): Transport {
  if (spec.transport === 'http') {
    return new StreamableHTTPClientTransport(new URL(spec.url), {
      ...(spec.headers && { requestInit: { headers: spec.headers } }),
      // The SDK does the whole dance: the 401, the server's metadata, the issuer's, the token request
      // for this server's resource, a new token when it expires, and a step-up on 403 insufficient_scope.
      ...(personProvider
        ? { authProvider: personProvider }
        : spec.oauth && { authProvider: clientCredentials(spec.oauth, spec.url) }),
    });
  }
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    // The SDK adds these to its safe default environment (PATH, HOME, ...), not to ours.
    ...(spec.env && { env: spec.env }),
    ...(spec.cwd && { cwd: spec.cwd }),
    // Piped, so the server's logs land in our logger instead of on the person's terminal.
    stderr: 'pipe',
  });
  let partial = '';
  const onLine = (line: string) => {
    const text = line.length > MAX_STDERR_LINE_LENGTH ? `${line.slice(0, MAX_STDERR_LINE_LENGTH)}…` : line;
    if (text.trim() === '') return;
    stderrTail.push(text);
    if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
    logger.debug({ server: spec.name, stderr: text }, 'MCP server stderr');
  };
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    // A server that never ends a line must not grow this buffer without bound.
    if (partial.length > MAX_STDERR_LINE_LENGTH) {
      onLine(partial);
      partial = '';
    }
    for (const line of lines) onLine(line);
  });
  return transport;
}

/** For display: a person's `sub` from the token, or the machine's client id; never the token itself. */
function signedInAs(spec: ServerSpec, person: PersonSignIn | undefined): SignedInAs | undefined {
  if (person) {
    const user = person.signedInAs();
    return user ? { user, kind: 'person' } : undefined;
  }
  if (spec.transport !== 'http' || !spec.oauth?.clientId) return undefined;
  return { user: spec.oauth.clientId, kind: 'client' };
}

function serverInfo(
  spec: ServerSpec,
  client: Client,
  person: PersonSignIn | undefined,
  skills: ServerSkills,
): ServerInfo {
  const implementation = client.getServerVersion();
  const instructions = client.getInstructions();
  const as = signedInAs(spec, person);
  return {
    name: spec.name,
    target: describeTarget(spec),
    protocolVersion: client.getNegotiatedProtocolVersion() ?? 'unknown',
    era: client.getProtocolEra() === 'modern' ? 'modern' : 'legacy',
    ...(implementation && { implementation: { name: implementation.name, version: implementation.version } }),
    ...(instructions && { instructions }),
    ...(as && { signedInAs: as }),
    ...(client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION_ID] !== undefined && {
      skills: skills.entries.map(summarizeSkill),
    }),
  };
}

/**
 * A modern `subscriptions/listen` stream that drops may have missed a change: re-list to be safe.
 * Closing the client ends the stream with the same 'remote' reason as a lost connection, so
 * `closing()` marks our own close first: that one is no drop and logs nothing.
 */
function watchSubscription(
  client: Client,
  server: string,
  hooks: ServerHooks,
  logger: McpLogger,
): { closing(): void } {
  let closedByUs = false;
  void client.autoOpenedSubscription?.closed.then((reason) => {
    if (reason !== 'remote' || closedByUs) return;
    hooks.toolsChanged = true;
    logger.warn({ server }, 'the tool-change subscription dropped; tool changes will no longer be noticed');
  });
  return {
    closing() {
      closedByUs = true;
    },
  };
}
