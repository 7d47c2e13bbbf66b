/**
 * @module sse
 * Reads `POST /api/chat/stream` with fetch: EventSource cannot send a body. Yields one
 * `{event, data}` per server-sent event, with `data` parsed as JSON.
 */

export interface SseEvent {
  event: string;
  data: unknown;
}

export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const parsed = parseBlock(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (parsed) yield parsed;
      end = buffer.indexOf('\n\n');
    }
  }
  const last = parseBlock(buffer);
  if (last) yield last;
}

/** One event block: `event:` and `data:` lines; several data lines join with newlines, per the spec. */
export function parseBlock(block: string): SseEvent | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length === 0) return undefined;
  try {
    return { event, data: JSON.parse(data.join('\n')) };
  } catch {
    return { event, data: data.join('\n') };
  }
}
