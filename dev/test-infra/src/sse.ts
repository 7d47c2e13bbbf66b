/**
 * @module sse
 * Reading MCP answers in tests: a response body that is JSON or an SSE stream, and an SSE stream that
 * stays open (a 2025 session's GET stream), read in the background with each message timestamped as it
 * arrives. Every wait is bounded: a missing message fails a test, never hangs it.
 */

/** Every message in a body: the `data:` lines of an SSE stream, or the JSON (one message or a batch). */
export function parseMcpBody(contentType: string | null, text: string): unknown[] {
  if (!text) return [];
  if ((contentType ?? '').includes('text/event-stream')) {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .filter(Boolean)
      .map((data) => JSON.parse(data) as unknown);
  }
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
}

export interface SseStream<T> {
  /** Every message so far, in order. */
  readonly messages: readonly T[];
  /**
   * The first message that matches and arrived at or after `since` (a `performance.now()` time; 0 for
   * any), already here or still to come, with when it arrived.
   */
  waitFor(
    match: (message: T) => boolean,
    timeoutMs: number,
    since?: number,
  ): Promise<{ message: T; at: number }>;
  close(): void;
}

/** GETs `url` with `headers` and reads its event stream until `close()`; rejects unless it is a 200. */
export async function openSseStream<T = unknown>(
  url: string,
  headers: Record<string, string>,
): Promise<SseStream<T>> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'GET',
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  if (response.status !== 200 || !response.body) {
    abort.abort();
    throw new Error(`GET stream refused: HTTP ${response.status} ${await response.text().catch(() => '')}`);
  }
  const received: Array<{ message: T; at: number }> = [];
  const waiters = new Set<() => void>();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        // One JSON-RPC message per event; a priming event has an empty data line and yields none.
        const [message] = parseMcpBody('text/event-stream', event);
        if (message !== undefined) received.push({ message: message as T, at: performance.now() });
      }
      for (const wake of waiters) wake();
    }
  })().catch(() => undefined);

  return {
    get messages() {
      return received.map((entry) => entry.message);
    },
    async waitFor(match, timeoutMs, since = 0) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const found = received.find((entry) => entry.at >= since && match(entry.message));
        if (found) return found;
        const left = deadline - performance.now();
        if (left <= 0) throw new Error(`no matching message on the stream within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, left);
          function done() {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          }
          waiters.add(done);
        });
      }
    },
    close: () => abort.abort(),
  };
}
