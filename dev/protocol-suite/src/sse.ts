/**
 * @module protocol-suite/sse
 * Reads Streamable HTTP bodies for the protocol suite: whole JSON or SSE bodies with a deadline,
 * and live SSE streams one event at a time, so a stream the server never ends cannot hang a test.
 */

/** One Server-Sent Event as it came off the wire; `data` is '' for a priming event. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/** A JSON-RPC message as this suite reads it: loose on purpose, because the suite checks the shape. */
export interface JsonRpcMessage {
  jsonrpc?: unknown;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** Longest a suite request may take; everything here is local and offline. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** How long "nothing more arrives" is watched for: long enough for a local server to speak. */
export const QUIET_PERIOD_MS = 400;

/** Parses complete SSE events out of `text`; returns them plus the unfinished tail. */
export function parseSse(text: string): { events: SseEvent[]; rest: string } {
  const normalized = text.replace(/\r\n?/g, '\n');
  const blocks = normalized.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: SseEvent[] = [];
  for (const block of blocks) {
    const event: SseEvent = { data: '' };
    const data: string[] = [];
    let seen = false;
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      seen = true;
      if (field === 'data') data.push(value);
      else if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'retry' && /^\d+$/.test(value)) event.retry = Number(value);
    }
    if (!seen) continue;
    event.data = data.join('\n');
    events.push(event);
  }
  return { events, rest };
}

/** The JSON-RPC messages carried by SSE events (priming events and comments carry none). */
export function messagesOf(events: readonly SseEvent[]): JsonRpcMessage[] {
  return events.filter((event) => event.data.trim() !== '').map((event) => JSON.parse(event.data));
}

/** Like `messagesOf`, but an event whose data is not JSON yields nothing instead of throwing. */
export function safeMessagesOf(events: readonly SseEvent[]): JsonRpcMessage[] {
  return events.flatMap((event) => {
    try {
      return messagesOf([event]);
    } catch {
      return [];
    }
  });
}

/**
 * A response body read one SSE event at a time. A JSON body is offered as one synthetic event, so
 * callers handle both answer styles the same way.
 */
export class LiveStream {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  readonly #decoder = new TextDecoder();
  #buffer = '';
  #queue: SseEvent[] = [];
  #pending: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> | undefined;
  #ended = false;
  /** The body text read so far. */
  raw = '';
  readonly isSse: boolean;

  constructor(readonly response: Response) {
    this.isSse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    this.#reader = response.body?.getReader();
    if (!this.#reader) this.#ended = true;
  }

  /** True once the server ended the body. */
  get ended(): boolean {
    return this.#ended && this.#queue.length === 0;
  }

  /** The next event, or undefined when the body ended or `timeoutMs` passed first. */
  async next(timeoutMs: number): Promise<SseEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.#queue.length === 0 && !this.#ended) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      if (!(await this.#pump(left))) return undefined;
    }
    return this.#queue.shift();
  }

  /** Reads events until one matches, the body ends, or `timeoutMs` passes; returns every event read. */
  async until(match: (message: JsonRpcMessage) => boolean, timeoutMs: number): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    const read: SseEvent[] = [];
    for (;;) {
      const event = await this.next(Math.max(0, deadline - Date.now()));
      if (!event) return read;
      read.push(event);
      if (safeMessagesOf([event]).some(match)) return read;
    }
  }

  /** Reads whatever arrives within `timeoutMs` (or until the body ends). */
  async drain(timeoutMs: number): Promise<SseEvent[]> {
    return this.until(() => false, timeoutMs);
  }

  /** Stops reading and lets the connection go; the server sees a disconnect. */
  async close(): Promise<void> {
    this.#ended = true;
    await this.#reader?.cancel().catch(() => undefined);
  }

  /** Reads one chunk within `timeoutMs`; false on timeout. */
  async #pump(timeoutMs: number): Promise<boolean> {
    const reader = this.#reader;
    if (!reader) return false;
    this.#pending ??= reader.read();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const chunk = await Promise.race([this.#pending.catch(() => ({ done: true as const })), timeout]);
    clearTimeout(timer);
    if (chunk === 'timeout') return false;
    this.#pending = undefined;
    if (chunk.done) {
      this.#ended = true;
      const tail = this.#decoder.decode();
      this.raw += tail;
      this.#buffer += tail;
      this.#flush(true);
      return true;
    }
    const text = this.#decoder.decode(chunk.value, { stream: true });
    this.raw += text;
    this.#buffer += text;
    this.#flush(false);
    return true;
  }

  #flush(final: boolean): void {
    if (this.isSse) {
      const { events, rest } = parseSse(final ? `${this.#buffer}\n\n` : this.#buffer);
      this.#queue.push(...events);
      this.#buffer = final ? '' : rest;
      return;
    }
    if (!final || this.#buffer.trim() === '') return;
    this.#queue.push({ data: this.#buffer });
    this.#buffer = '';
  }
}

/** Reads a whole body within `timeoutMs`; `complete` is false when the server had not ended it by then. */
export async function readBody(
  response: Response,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<{ text: string; events: SseEvent[]; complete: boolean }> {
  const stream = new LiveStream(response);
  const events = await stream.drain(timeoutMs);
  const complete = stream.ended;
  await stream.close();
  return { text: stream.raw, events: stream.isSse ? events : [], complete };
}
