import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAPROXY_CONFIG_PATH, loopbackConfig, type RunningHaproxy, startHaproxy } from './haproxy.js';
import { systemPrograms } from './system-binaries.js';

const available = systemPrograms('the HAProxy tests', ['haproxy']);

/** fall 2 × inter 500 ms, plus slack for a busy box: when a dead backend must be out of rotation. */
const MARKED_DOWN_MS = 3_000;

interface Backend {
  name: string;
  port: number;
  server: Server;
  /** Session ids this backend issued, as an MCP server issues Mcp-Session-Id on initialize. */
  sessions: Set<string>;
  /** What /health/ready says, as a replica says whether it reaches Postgres. */
  ready: boolean;
}

/** A stand-in replica: alive on /health, ready unless told not to, issues session ids, says who it is. */
async function startBackend(name: string): Promise<Backend> {
  const sessions = new Set<string>();
  let issued = 0;
  const server = createServer((req, res) => {
    if (req.url === '/health') return res.writeHead(200).end('alive');
    if (req.url === '/health/ready') return res.writeHead(backend.ready ? 200 : 503).end();
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      if (!sessions.has(sessionId)) return res.writeHead(404).end(`${name}: session not found`);
      return res.writeHead(200).end(name);
    }
    const id = `${name}-${++issued}-${Math.random().toString(36).slice(2)}`;
    sessions.add(id);
    return res.writeHead(200, { 'mcp-session-id': id }).end(name);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const backend: Backend = {
    name,
    port: (server.address() as AddressInfo).port,
    server,
    sessions,
    ready: true,
  };
  return backend;
}

function closeBackend(backend: Backend): Promise<void> {
  backend.server.closeAllConnections();
  return new Promise((resolve) => backend.server.close(() => resolve()));
}

async function get(url: string, sessionId?: string) {
  const response = await fetch(url, { headers: sessionId ? { 'mcp-session-id': sessionId } : {} });
  return {
    status: response.status,
    body: await response.text(),
    sessionId: response.headers.get('mcp-session-id'),
  };
}

describe('loopbackConfig', () => {
  it('keeps every setting of the shipped file and replaces only bind and the server lines', () => {
    const template = readFileSync(HAPROXY_CONFIG_PATH, 'utf8');
    const config = loopbackConfig(template, 4321, [{ port: 1001 }, { port: 1002 }]);
    expect(config).toMatch(/^\s*bind 127\.0\.0\.1:4321$/m);
    // Both backends (ready, and the live fallback) get the same list, with the same ids.
    const servers = ['  server replica-1 127.0.0.1:1001 id 1', '  server replica-2 127.0.0.1:1002 id 2'];
    expect(config.match(/^\s*server .*$/gm)).toEqual([...servers, ...servers]);
    const settings = (text: string) =>
      text.split('\n').filter((line) => line.trim() && !/^\s*(#|bind\s|server\s)/.test(line));
    expect(settings(config)).toEqual(settings(template));
  });
});

/** Two stand-in backends behind a real HAProxy, started before the block's tests and stopped after. */
function twoBackendsBehindHaproxy(): { a: Backend; b: Backend; lb: RunningHaproxy } {
  const stack = {} as { a: Backend; b: Backend; lb: RunningHaproxy };
  beforeAll(async () => {
    stack.a = await startBackend('a');
    stack.b = await startBackend('b');
    stack.lb = await startHaproxy({ backends: [stack.a, stack.b] });
  }, 30_000);
  afterAll(async () => {
    await stack.lb?.stop();
    await Promise.all([stack.a, stack.b].filter(Boolean).map(closeBackend));
  });
  return stack;
}

describe.skipIf(!available.ok)('startHaproxy', () => {
  const stack = twoBackendsBehindHaproxy();

  it('spreads requests without a session id over both backends', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10; i += 1) seen.add((await get(stack.lb.url)).body);
    expect([...seen].sort()).toEqual(['a', 'b']);
  });

  it('sends every request of a session to the backend that issued its id', async () => {
    for (let session = 0; session < 6; session += 1) {
      const opened = await get(stack.lb.url);
      expect(opened.sessionId).toEqual(expect.any(String));
      for (let i = 0; i < 5; i += 1) {
        expect(await get(stack.lb.url, opened.sessionId ?? '')).toEqual({
          status: 200,
          body: opened.body,
          sessionId: null,
        });
      }
    }
  });

  it('routes around a dead backend, and sends its sessions to one that answers 404', async () => {
    const sessionsOnB: string[] = [];
    while (sessionsOnB.length < 3) {
      const opened = await get(stack.lb.url);
      if (opened.body === 'b' && opened.sessionId) sessionsOnB.push(opened.sessionId);
    }
    await closeBackend(stack.b);
    // At once, before the health check notices: a refused connection is retried on the other backend.
    for (let i = 0; i < 10; i += 1) expect(await get(stack.lb.url)).toMatchObject({ status: 200, body: 'a' });
    for (const sessionId of sessionsOnB) {
      expect(await get(stack.lb.url, sessionId)).toMatchObject({ status: 404, body: 'a: session not found' });
    }
    await new Promise((resolve) => setTimeout(resolve, MARKED_DOWN_MS));
    expect(stack.lb.log()).toMatch(/replica-2 is DOWN/);
    for (let i = 0; i < 10; i += 1) expect(await get(stack.lb.url)).toMatchObject({ status: 200, body: 'a' });
  }, 20_000);
});

describe.skipIf(!available.ok)('startHaproxy when no backend is ready', () => {
  const stack = twoBackendsBehindHaproxy();

  it('keeps serving through every live backend, sessions still sticky, and goes back once one is ready', async () => {
    const opened = await get(stack.lb.url);
    stack.a.ready = false;
    stack.b.ready = false;
    await new Promise((resolve) => setTimeout(resolve, MARKED_DOWN_MS));
    expect(stack.lb.log()).toMatch(/mcp-servers has no server available/);
    const seen = new Set<string>();
    for (let i = 0; i < 10; i += 1) {
      const answer = await get(stack.lb.url);
      expect(answer.status).toBe(200);
      seen.add(answer.body);
    }
    expect([...seen].sort()).toEqual(['a', 'b']);
    expect(await get(stack.lb.url, opened.sessionId ?? '')).toMatchObject({ status: 200, body: opened.body });

    stack.a.ready = true;
    await new Promise((resolve) => setTimeout(resolve, MARKED_DOWN_MS));
    for (let i = 0; i < 6; i += 1) expect(await get(stack.lb.url)).toMatchObject({ status: 200, body: 'a' });
  }, 20_000);
});
