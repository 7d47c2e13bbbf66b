/**
 * What the shipped deploy/haproxy/haproxy.cfg tells a replica about the client: X-Forwarded-For is
 * the address HAProxy saw, whatever the client wrote, and the other headers that name a client are
 * gone. A replica trusting the balancer (MCP_TRUST_PROXY) keys its rate limits on that header.
 * Partner of haproxy.test.ts (routing); clients differ by source address, 127.0.0.x on Linux.
 */
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHaproxy, startHaproxy } from './haproxy.js';
import { systemPrograms } from './system-binaries.js';

const available = systemPrograms('the HAProxy tests', ['haproxy']);

/** A request through HAProxy is a loopback round trip; one that hangs is a failure, not a wait. */
const REQUEST_TIMEOUT_MS = 5_000;

/** What the backend was told: every X-Forwarded-For line as received, and the other client headers. */
interface Seen {
  forwardedFor: string[];
  headers: IncomingHttpHeaders;
}

/** Answers every request with the headers it received, and /health/ready with 200 for the check. */
async function startEchoBackend(): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/health')) return res.writeHead(200).end();
    const forwardedFor: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i]?.toLowerCase() === 'x-forwarded-for')
        forwardedFor.push(req.rawHeaders[i + 1] ?? '');
    }
    const seen: Seen = { forwardedFor, headers: req.headers };
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A GET through HAProxy from `from` (fetch can't choose its source address), with `headers`. */
function getFrom(url: string, from: string, headers: Record<string, string | string[]> = {}): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { localAddress: from, agent: false, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('error', reject);
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${body.slice(0, 200)}`));
          else resolve(JSON.parse(body) as Seen);
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(!available.ok)('the shipped HAProxy configuration and the client address', () => {
  let backend: { server: Server; port: number };
  let lb: RunningHaproxy;
  beforeAll(async () => {
    backend = await startEchoBackend();
    lb = await startHaproxy({ backends: [{ port: backend.port }] });
  }, 30_000);
  afterAll(async () => {
    await lb?.stop();
    backend?.server.closeAllConnections();
    await new Promise((resolve) => backend?.server.close(resolve));
  });

  it('sends X-Forwarded-For with the peer address when the client sent none', async () => {
    expect((await getFrom(lb.url, '127.0.0.1')).forwardedFor).toEqual(['127.0.0.1']);
    expect((await getFrom(lb.url, '127.0.0.2')).forwardedFor).toEqual(['127.0.0.2']);
  });

  it.each([
    ['one address', '203.0.113.7'],
    ['a list ending in the balancer', '203.0.113.7, 127.0.0.1'],
    ['several lines', ['203.0.113.7', '198.51.100.9']],
    ['an empty value', ''],
    ['something that is no address', 'unknown, <script>'],
    ['an oversized list', `${'198.51.100.1, '.repeat(400)}198.51.100.2`],
  ])("replaces the client's X-Forwarded-For (%s) with the peer address alone", async (_, value) => {
    const seen = await getFrom(lb.url, '127.0.0.3', { 'x-forwarded-for': value });
    expect(seen.forwardedFor).toEqual(['127.0.0.3']);
  });

  it('drops Forwarded, X-Real-IP, X-Forwarded-Host and X-Forwarded-Proto, and keeps the other headers', async () => {
    const seen = await getFrom(lb.url, '127.0.0.4', {
      forwarded: 'for=203.0.113.7;proto=https;host=evil.example',
      'x-real-ip': '203.0.113.7',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      'mcp-session-id': 'kept-as-sent',
    });
    expect(seen.forwardedFor).toEqual(['127.0.0.4']);
    expect(seen.headers).not.toHaveProperty('forwarded');
    expect(seen.headers).not.toHaveProperty('x-real-ip');
    expect(seen.headers).not.toHaveProperty('x-forwarded-host');
    expect(seen.headers).not.toHaveProperty('x-forwarded-proto');
    expect(seen.headers['mcp-session-id']).toBe('kept-as-sent');
  });
});
