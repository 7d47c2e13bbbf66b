/**
 * `fastPath` on a real express app over `node:http`: its handlers run in order for the one spelling,
 * anything else walks the router, and an error (thrown, passed to `next`, or a rejected promise)
 * goes to the app's error handler without the router's own `/mcp` layers running a second time.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { fastPath } from './fast-path.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** An app with `chain` on the short way and a router layer that says when it was reached instead. */
async function appWith(chain: RequestHandler[]) {
  const seen: string[] = [];
  const app = express();
  app.use(fastPath('/mcp', chain));
  app.all('/mcp', (_req, res) => {
    seen.push('router');
    res.status(200).send('router');
  });
  app.use(((error: Error, _req, res, _next) => {
    seen.push(`error: ${error.message}`);
    res.status(500).send('error');
  }) satisfies ErrorRequestHandler);
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server?.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const get = async (path: string) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: response.status, body: await response.text() };
  };
  return { seen, get };
}

const mark =
  (seen: string[], name: string): RequestHandler =>
  (_req, _res, next) => {
    seen.push(name);
    next();
  };

describe('fastPath', () => {
  it('runs its handlers in order for /mcp, with or without a query, and nothing else', async () => {
    const order: string[] = [];
    const answer: RequestHandler = (_req, res) => {
      order.push('answer');
      res.send('short');
    };
    const { seen, get } = await appWith([mark(order, 'first'), mark(order, 'second'), answer]);
    expect(await get('/mcp')).toEqual({ status: 200, body: 'short' });
    expect(await get('/mcp?x=1')).toEqual({ status: 200, body: 'short' });
    expect(order).toEqual(['first', 'second', 'answer', 'first', 'second', 'answer']);
    // Every other spelling express accepts for `/mcp` is the router's, as before.
    for (const path of ['/MCP', '/mcp/', '/Mcp?x=1']) expect((await get(path)).body).toBe('router');
    expect((await get('/mcpx')).status).toBe(404);
    expect(seen).toEqual(['router', 'router', 'router']);
  });

  it.each([
    [
      'throws',
      (() => {
        throw new Error('thrown');
      }) as RequestHandler,
    ],
    ['passes an error to next', ((_req, _res, next) => next(new Error('passed'))) as RequestHandler],
    [
      'returns a rejected promise',
      (async () => {
        throw new Error('rejected');
      }) as RequestHandler,
    ],
  ])('hands an error to the app when a handler %s, and runs nothing after it', async (_how, failing) => {
    const after: string[] = [];
    const { seen, get } = await appWith([failing, mark(after, 'after')]);
    expect(await get('/mcp')).toEqual({ status: 500, body: 'error' });
    expect(after).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^error: (thrown|passed|rejected)$/);
  });

  it('treats a chain whose every handler passed the request on as an error, not as a walk to the router', async () => {
    const order: string[] = [];
    const { seen, get } = await appWith([mark(order, 'only')]);
    expect((await get('/mcp')).status).toBe(500);
    expect(seen).toEqual(['error: GET /mcp: every handler passed the request on, none answered.']);
  });
});
