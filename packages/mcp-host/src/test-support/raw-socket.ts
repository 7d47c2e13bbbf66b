/**
 * @module test-support/raw-socket
 * HTTP/1.1 written byte for byte on a `net` socket, for what `fetch` and `node:http` will not send:
 * an absolute-form request-target, a body that breaks its own Content-Encoding, a body abandoned
 * half way. An answer is read until its Content-Length, its last chunk, or the server's close; a
 * chunked body is kept as it came (tests look for words in it, not at its framing).
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names lowercased; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
}

export interface RawRequest {
  method?: string;
  /** Sent as it is on the request line: `/mcp`, or `http://127.0.0.1:1234/mcp`. */
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

function head({ method = 'POST', target, headers }: RawRequest, bodyLength: number): string {
  const lines = [`${method} ${target} HTTP/1.1`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-length'))
    lines.push(`content-length: ${bodyLength}`);
  lines.push('connection: close', '', '');
  return lines.join('\r\n');
}

function parseAnswer(raw: string): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = raw.slice(0, end < 0 ? raw.length : end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine.split(' ')[1] ?? 0),
    headers,
    body: end < 0 ? '' : raw.slice(end + 4),
  };
}

/**
 * Whether `raw` holds a whole answer: its Content-Length read, or a chunked body's last chunk.
 * An SSE answer says `Connection: keep-alive` whatever the request asked, so the end of the
 * connection cannot be waited for.
 */
function isComplete(raw: Buffer): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const { headers } = parseAnswer(raw.subarray(0, end + 4).toString('utf8'));
  const body = raw.subarray(end + 4);
  if (headers['content-length'] !== undefined) return body.length >= Number(headers['content-length']);
  if (headers['transfer-encoding']?.includes('chunked'))
    return body.length >= 5 && body.subarray(body.length - 5).toString() === '0\r\n\r\n';
  return false;
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends one request and reads its whole answer (until the server closes the connection). */
export async function rawExchange(port: number, request: RawRequest): Promise<RawAnswer> {
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body);
  const socket = await open(port);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks).toString('utf8')));
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (isComplete(Buffer.concat(chunks))) finish();
    });
    socket.once('error', reject);
    socket.once('end', finish);
    socket.write(head(request, body.length));
    socket.write(body);
  });
}

/**
 * Sends the head of a request that announces `announced` bytes of body, then `sent` of them, then
 * hangs up: a client that leaves mid-body. Resolves once the socket is closed on this side.
 */
export async function abandonBody(
  port: number,
  request: RawRequest,
  announced: number,
  sent: string,
): Promise<void> {
  const socket = await open(port);
  socket.write(head({ ...request, headers: { ...request.headers, 'content-length': String(announced) } }, 0));
  await new Promise<void>((resolve) => socket.write(sent, () => resolve()));
  await new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.destroy();
  });
}
