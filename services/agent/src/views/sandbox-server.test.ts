/**
 * Tests for `sandbox-server.ts` over real HTTP on 127.0.0.1: the sandbox proxy serves its page only
 * for a chat page origin the agent answers to, under the policy built from the declared origins,
 * refuses everything else, and checks the Host header as the agent does.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspHeader, EMPTY_CSP } from './csp.js';
import { sandboxPage } from './sandbox-page.js';
import {
  createViewSandboxApp,
  isChatPageOrigin,
  MAX_CSP_QUERY_CHARS,
  type ViewSandboxOptions,
} from './sandbox-server.js';

const CHAT = 'http://127.0.0.1:3001';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const servers: Server[] = [];

async function listen(app: Express): Promise<number> {
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** One request with the Host header given (fetch cannot set it), read whole. */
function request(
  port: number,
  path: string,
  options: { method?: string; host?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `127.0.0.1:${port}` },
        timeout: 5_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.once('timeout', () => req.destroy(new Error('no answer in 5 s')));
    req.once('error', reject);
    req.end();
  });
}

const page = (host: string, csp?: string) =>
  `/sandbox.html?host=${encodeURIComponent(host)}${csp === undefined ? '' : `&csp=${encodeURIComponent(csp)}`}`;

let port: number;

beforeAll(async () => {
  port = await listen(createViewSandboxApp());
});

afterAll(async () => {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

describe('createViewSandboxApp: GET /sandbox.html', () => {
  it('serves the proxy page for a localhost chat page, under the strict policy, naming that origin', async () => {
    const answer = await request(port, page(CHAT));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['content-security-policy']).toBe(cspHeader(EMPTY_CSP, CHAT));
    expect(answer.headers['content-security-policy']).toContain(`frame-ancestors ${CHAT}`);
    expect(answer.headers['content-security-policy']).toContain("connect-src 'none'");
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.body).toBe(sandboxPage(CHAT));
    expect(answer.body).toContain(`const HOST_ORIGIN = ${JSON.stringify(CHAT)};`);
  });

  it('takes any port of a localhost name, and https', async () => {
    for (const host of [
      'http://localhost:5173',
      'http://[::1]:3001',
      'https://localhost',
      'http://127.0.0.1',
    ]) {
      const answer = await request(port, page(host));
      expect(answer.status, host).toBe(200);
      expect(answer.headers['content-security-policy']).toContain(`frame-ancestors ${host}`);
    }
  });

  it('never lets the inner frame share an origin with the proxy page', async () => {
    const { body } = await request(port, page(CHAT));
    const sandboxes = [...body.matchAll(/setAttribute\(\s*'sandbox'\s*,\s*'([^']*)'\s*\)/g)].map((m) => m[1]);
    expect(sandboxes).toEqual(['allow-scripts']);
    // Nothing else sets it: no property write, no other attribute call.
    expect(body).not.toMatch(/\.sandbox\s*(=|\.add)/);
    const code = body
      .split('\n')
      .filter((line) => !line.trim().startsWith('//'))
      .join('\n');
    expect(code).not.toContain('allow-same-origin');
  });

  it('names the declared origins in the policy', async () => {
    const csp = JSON.stringify({ connectDomains: ['https://API.example.com'], resourceDomains: [] });
    const answer = await request(port, page(CHAT, csp));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-security-policy']).toBe(
      cspHeader({ ...EMPTY_CSP, connectDomains: ['https://api.example.com'] }, CHAT),
    );
  });

  it.each([
    ['another site', 'http://evil.example'],
    ['a look-alike host', 'http://127.0.0.1.evil.example:3001'],
    ['a path', `${CHAT}/chat`],
    ['a trailing slash', `${CHAT}/`],
    ['an upper-case scheme', 'HTTP://127.0.0.1:3001'],
    ['user info', 'http://me@127.0.0.1:3001'],
    ['another scheme', 'ftp://127.0.0.1'],
    ['a script URL', 'javascript:alert(1)'],
    ['the opaque origin', 'null'],
    ['nothing', ''],
  ])('answers 400 when host is %s', async (_label, host) => {
    const answer = await request(port, page(host));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-security-policy']).toBeUndefined();
    expect(answer.body).toMatch(/^host must be the origin of a chat page/);
  });

  it('answers 400 without a host, or with two', async () => {
    expect((await request(port, '/sandbox.html')).status).toBe(400);
    const twice = `/sandbox.html?host=${encodeURIComponent(CHAT)}&host=${encodeURIComponent(CHAT)}`;
    expect((await request(port, twice)).status).toBe(400);
  });

  it.each([
    ['not JSON', '{connectDomains: []}'],
    ['an unknown key', '{"scriptDomains": ["https://a.example.com"]}'],
    ['a bare wildcard', '{"connectDomains": ["*"]}'],
    ['a keyword', `{"resourceDomains": ["'unsafe-eval'"]}`],
    ['a second directive', '{"connectDomains": ["https://a.com; script-src *"]}'],
    ['a path', '{"frameDomains": ["https://a.com/path"]}'],
    ['a string', '"https://a.example.com"'],
    ['null', 'null'],
  ])('answers 400 when csp is %s', async (_label, csp) => {
    const answer = await request(port, page(CHAT, csp));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-security-policy']).toBeUndefined();
    expect(answer.body).toMatch(/^csp (must be JSON|may hold)/);
  });

  it(`answers 414 when csp is longer than ${MAX_CSP_QUERY_CHARS} characters`, async () => {
    // Valid JSON padded with spaces ("+" in a query): only its length is wrong.
    const padded = (length: number) => `{"connectDomains":[]}`.padEnd(length, '+');
    const at = (csp: string) => `/sandbox.html?host=${encodeURIComponent(CHAT)}&csp=${csp}`;
    expect((await request(port, at(padded(MAX_CSP_QUERY_CHARS + 1)))).status).toBe(414);
    expect((await request(port, at(padded(MAX_CSP_QUERY_CHARS)))).status).toBe(200);
  });

  it('answers 404 for any other path or method', async () => {
    for (const path of ['/', '/index.html', '/sandbox', '/sandbox.htm', '/api/views/resource']) {
      const answer = await request(port, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toContain('/sandbox.html only');
    }
    for (const method of ['POST', 'PUT', 'DELETE']) {
      expect((await request(port, page(CHAT), { method })).status, method).toBe(404);
    }
  });

  it('answers 403 to a foreign Host header, before anything else', async () => {
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`]) {
      expect((await request(port, page(CHAT), { host })).status, host).toBe(403);
    }
    expect((await request(port, '/nothing', { host: 'evil.example' })).status).toBe(403);
    expect((await request(port, page(CHAT), { host: `localhost:${port}` })).status).toBe(200);
  });
});

describe('createViewSandboxApp with allowedHosts and allowedOrigins', () => {
  const options: ViewSandboxOptions = {
    allowedHosts: ['agent.example'],
    allowedOrigins: ['https://chat.example'],
  };
  let widePort: number;

  beforeAll(async () => {
    widePort = await listen(createViewSandboxApp(options));
  });

  it('answers to a listed Host, and takes a chat page on a listed host name or at a listed origin', async () => {
    expect((await request(widePort, page(CHAT), { host: 'agent.example' })).status).toBe(200);
    for (const host of ['http://agent.example:8080', 'https://agent.example', 'https://chat.example']) {
      expect((await request(widePort, page(host))).status, host).toBe(200);
    }
  });

  it('still refuses what is not listed', async () => {
    expect((await request(widePort, page(CHAT), { host: 'evil.example' })).status).toBe(403);
    // A listed origin is taken exactly: another port or scheme of it is another origin.
    for (const host of ['https://chat.example:8443', 'http://chat.example', 'http://evil.example']) {
      expect((await request(widePort, page(host))).status, host).toBe(400);
    }
    // The default app does not take them.
    expect((await request(port, page(CHAT), { host: 'agent.example' })).status).toBe(403);
    expect((await request(port, page('https://chat.example'))).status).toBe(400);
  });

  it('isChatPageOrigin agrees', () => {
    expect(isChatPageOrigin('https://chat.example', options)).toBe(true);
    expect(isChatPageOrigin('https://chat.example')).toBe(false);
    expect(isChatPageOrigin('http://agent.example:1', options)).toBe(true);
    expect(isChatPageOrigin('not a url', options)).toBe(false);
  });
});

describe('sandboxPage', () => {
  it('cannot be made to close its script by what it names', () => {
    const html = sandboxPage('</script><script>alert(1)</script>');
    expect(html).not.toContain('</script><script>alert(1)');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).toContain('"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"');
  });
});
