/**
 * @module test-support/fake-server
 * A transport and a server of the shape `traceMcpServer` wraps, small enough to read in one go:
 * `connect(transport)` sets `onmessage` and `onclose` on the transport as the SDK's `Protocol`
 * does, and a handler's result or thrown error goes back through `transport.send`. The real SDK
 * runs against the same wrapper in the services' cross-process tests.
 */

export type Message = Record<string, unknown>;
/** What an HTTP transport passes along with a message: the fetch `Request`, or Node's headers. */
export type Extra = {
  request?: { headers: Headers };
  requestInfo?: { headers: Record<string, string | string[] | undefined> };
};
export type Handler = (
  request: { method: string; params?: Record<string, unknown> },
  extra?: Extra,
) => unknown;

/** Receives what the server sends, and lets a test wait for the answer to one request. */
export class FakeTransport {
  onmessage?: ((message: Message, extra?: Extra) => void) | undefined;
  onclose?: (() => void) | undefined;
  sessionId?: string | undefined;
  readonly sent: Message[] = [];
  readonly #waiting = new Map<unknown, (message: Message) => void>();

  async send(message: Message): Promise<void> {
    this.sent.push(message);
    this.#waiting.get(message.id)?.(message);
  }

  /** Delivers `message` as if it had arrived, and resolves with the response the server sends. */
  request(message: Message, extra?: Extra): Promise<Message> {
    const answered = new Promise<Message>((resolve) => this.#waiting.set(message.id, resolve));
    this.deliver(message, extra);
    return answered;
  }

  /** Delivers `message` without waiting for anything. */
  deliver(message: Message, extra?: Extra): void {
    this.onmessage?.(message, extra);
  }

  close(): void {
    this.onclose?.();
  }
}

/** Answers requests from `handlers`; an unknown method is JSON-RPC -32601, a throw its `code` or -32603. */
export class FakeServer {
  closed = false;
  /** The transport as `connect` was handed it: the traced view, when traced. */
  transport?: FakeTransport;
  /** Every message that was not a request, in order. */
  readonly received: unknown[] = [];

  constructor(private readonly handlers: Record<string, Handler>) {}

  async connect(transport: FakeTransport): Promise<void> {
    this.transport = transport;
    transport.onclose = () => {
      this.closed = true;
    };
    transport.onmessage = (message, extra) => {
      const { id, method } = (message ?? {}) as Message;
      if (typeof method !== 'string' || id === undefined) {
        this.received.push(message);
        return;
      }
      const request = message as { method: string; params?: Record<string, unknown> };
      // The SDK runs a handler a microtask later, as here, so the span must survive the hop.
      void Promise.resolve()
        .then(() => {
          const handler = this.handlers[method];
          if (!handler) throw Object.assign(new Error('Method not found'), { code: -32601 });
          return handler(request, extra);
        })
        .then(
          (result) => transport.send({ jsonrpc: '2.0', id, result }),
          (error: Error & { code?: number }) =>
            transport.send({
              jsonrpc: '2.0',
              id,
              error: { code: error.code ?? -32603, message: error.message },
            }),
        );
    };
  }
}
