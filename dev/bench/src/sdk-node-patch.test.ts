/**
 * The patches to the SDK's node adapter (`toNodeHandler`, @modelcontextprotocol/node), which pnpm
 * does not install (patches/README.md): the host serves through its own adapter, and only the
 * bench's SDK floor serves through this one. So they are tested where they run, on a build of the
 * SDK with the whole series (sdk-builds.ts, `scripts/patch-series.mjs variant`):
 * - patches/series/03-node-parse-body-once.patch: the JSON body the adapter reads is parsed once
 *   and handed to the handler as `parsedBody`, so `createMcpHandler` neither clones the `Request`
 *   (a body tee) nor reads it a second time;
 * - patches/series/04-node-write-json-once.patch: a JSON answer goes out whole, with a
 *   Content-Length, in one `res.end()`; an event stream is still streamed;
 * - patches/series/10-node-exchange-signal.patch: the `Request` is built without a signal, and the
 *   client's going away reaches the handler as `options.signal` (server patch 09 follows it);
 * - patches/series/11-node-json-answer-text.patch: the text of a JSON answer settled without a body
 *   (server patch 12, `jsonText: true`) is written as it is.
 * Run against the adapter as published (a build with none of the node patches), the ones marked
 * with NOT_APPLIED fail.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as NodeAdapter from '@modelcontextprotocol/node';
import type * as ServerSdk from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { buildSdk, REPO_ROOT, readSeries } from './sdk-builds.js';

const NOT_APPLIED =
  "a node adapter patch of patches/series/ is not applied to the bench's build of the SDK: see patches/README.md";

interface Seen {
  parsedBody: unknown;
  hadParsedBody: boolean;
  bodyText: string;
}

/** The build's SDK: its node adapter and the server package it imports, as one pair. */
let toNodeHandler: typeof NodeAdapter.toNodeHandler;
let createMcpHandler: typeof ServerSdk.createMcpHandler;
let McpServer: typeof ServerSdk.McpServer;
let build: string | undefined;

beforeAll(async () => {
  build = mkdtempSync(join(tmpdir(), 'sdk-node-patch-'));
  const modules = buildSdk(REPO_ROOT, readSeries(REPO_ROOT).length, build);
  // A module beside the build's node_modules, so both packages resolve from there.
  const entry = join(dirname(modules), 'sdk.mjs');
  writeFileSync(
    entry,
    "export { toNodeHandler } from '@modelcontextprotocol/node';\nexport { createMcpHandler, McpServer } from '@modelcontextprotocol/server';\n",
  );
  const sdk = (await import(/* @vite-ignore */ pathToFileURL(entry).href)) as typeof NodeAdapter &
    typeof ServerSdk;
  ({ toNodeHandler, createMcpHandler, McpServer } = sdk);
}, 60_000);

afterAll(() => {
  if (build) rmSync(build, { recursive: true, force: true });
});

let server: Server | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function listen(listener: RequestListener): Promise<string> {
  const created = createServer(listener);
  server = created;
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(created.address() as AddressInfo).port}/mcp`;
}

type Handler = Parameters<typeof NodeAdapter.toNodeHandler>[0];
const serve = (handler: unknown, options?: Parameters<typeof NodeAdapter.toNodeHandler>[1]) =>
  listen(toNodeHandler(handler as Handler, options));

/** A handler that records what the adapter handed it and answers `answer`. */
function recordingHandler(answer: () => Response) {
  const seen: Seen[] = [];
  return {
    seen,
    fetch: async (request: Request, options?: { parsedBody?: unknown }) => {
      const bodyText = request.body ? await request.text() : '';
      seen.push({
        parsedBody: options?.parsedBody,
        hadParsedBody: options?.parsedBody !== undefined,
        bodyText,
      });
      return answer();
    },
  };
}

/** One raw HTTP exchange, so headers such as Transfer-Encoding are seen as sent. */
function exchange(url: string, method: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(
        url,
        { method, headers: { 'content-type': 'application/json', ...headers } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  );
}

const MODERN = '2026-07-28';
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 3,
  method: 'tools/call',
  params: {
    name: 'add',
    arguments: { a: 2, b: 3 },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'patch-check', version: '0.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});
const CALL_HEADERS = {
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN,
  'mcp-method': 'tools/call',
  'mcp-name': 'add',
};

function addServer() {
  const mcp = new McpServer({ name: 'patch-check', version: '0.0.0' });
  mcp.registerTool(
    'add',
    { description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }) },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  return mcp;
}

describe('the patched node adapter: the body is parsed once (03)', () => {
  it('hands the JSON it read to the handler as parsedBody, and the Request still carries the bytes', async () => {
    const handler = recordingHandler(() => Response.json({ ok: true }));
    const url = await serve(handler);
    const sent = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const answer = await exchange(url, 'POST', sent);
    expect(answer.status).toBe(200);
    expect(handler.seen[0]?.parsedBody, NOT_APPLIED).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(handler.seen[0]?.bodyText).toBe(sent);
  });

  it('serves a 2026-07-28 tools/call through createMcpHandler without cloning the Request', async () => {
    const clone = vi.spyOn(Request.prototype, 'clone');
    const url = await serve(createMcpHandler(() => addServer()));
    const answer = await exchange(url, 'POST', CALL, CALL_HEADERS);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"text":"5"');
    expect(clone, NOT_APPLIED).not.toHaveBeenCalled();
  });

  it('hands nothing parsed for a body that is not JSON, and the handler answers it as before', async () => {
    const handler = recordingHandler(() => Response.json({ ok: true }));
    const url = await serve(handler);
    await exchange(url, 'POST', '{"jsonrpc": "2.0", "id": 1,');
    await exchange(url, 'POST', '');
    await exchange(url, 'GET');
    expect(handler.seen.map((s) => s.hadParsedBody)).toEqual([false, false, false]);
    expect(handler.seen[0]?.bodyText).toBe('{"jsonrpc": "2.0", "id": 1,');

    const mcpUrl = await serve(createMcpHandler(() => addServer(), { legacy: 'reject' }));
    const broken = await exchange(mcpUrl, 'POST', '{"jsonrpc": "2.0", "id": 1,', CALL_HEADERS);
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body).error.code).toBe(-32700);
  });

  it('refuses a body over the size limit with 413 before the handler runs', async () => {
    const handler = recordingHandler(() => Response.json({ ok: true }));
    const url = await serve(handler, { maxRequestBodySize: 64 });
    const answer = await exchange(url, 'POST', JSON.stringify({ padding: 'x'.repeat(200) }));
    expect(answer.status).toBe(413);
    expect(handler.seen).toHaveLength(0);
  });

  it('keeps a parsed body it was given, and does not parse again', async () => {
    const handler = recordingHandler(() => Response.json({ ok: true }));
    const given = { jsonrpc: '2.0', id: 9, method: 'ping' };
    const adapter = toNodeHandler(handler as Handler);
    const url = await listen((req, res) => void adapter(req, res, given));
    await exchange(url, 'POST', '{"ignored": true}');
    expect(handler.seen[0]?.parsedBody).toBe(given);
  });
});

describe('the patched node adapter: a JSON answer is written once (04)', () => {
  it('sends a JSON answer whole, with a Content-Length and no chunked encoding', async () => {
    const url = await serve(createMcpHandler(() => addServer()));
    const answer = await exchange(url, 'POST', CALL, CALL_HEADERS);
    expect(answer.status).toBe(200);
    expect(answer.headers['transfer-encoding'], NOT_APPLIED).toBeUndefined();
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
    expect(JSON.parse(answer.body).result.content[0].text).toBe('5');
  });

  it('still streams an event stream: the first event arrives while the stream is open', async () => {
    let finish: () => void = () => undefined;
    const open = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const url = await serve({
      fetch: async () =>
        new Response(
          new ReadableStream({
            async start(controller) {
              controller.enqueue(new TextEncoder().encode('data: first\n\n'));
              await open;
              controller.close();
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    });
    const first = await new Promise<{ chunk: string; chunked: unknown }>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          res.setEncoding('utf8');
          res.once('data', (chunk: string) => resolve({ chunk, chunked: res.headers['transfer-encoding'] }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    finish();
    expect(first.chunk).toBe('data: first\n\n');
    expect(first.chunked).toBe('chunked');
  });

  it('leaves a JSON answer with a content encoding to the streaming path', async () => {
    const url = await serve({
      fetch: async () =>
        new Response('{"ok":true}', {
          headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
        }),
    });
    const answer = await exchange(url, 'POST', '{}');
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.body).toBe('{"ok":true}');
  });

  it('drops the connection, rather than send a cut-off 200, when a JSON body fails midway', async () => {
    const url = await serve({
      fetch: async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"partial":'));
              controller.error(new Error('the body broke'));
            },
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
    });
    const outcome = await exchange(url, 'POST', '{}').then(
      (answer) => `answered ${answer.status}: ${answer.body}`,
      (error: Error) => `failed: ${error.message}`,
    );
    expect(outcome, NOT_APPLIED).toMatch(/^failed: /);
  });
});

/** Sends `body` and drops the connection once `ready` resolves, as a client that went away. */
function sendThenLeave(url: string, body: string, headers: Record<string, string>, ready: Promise<void>) {
  const req = httpRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
  });
  req.on('error', () => undefined);
  req.end(body);
  void ready.then(() => req.destroy());
}

/** Resolves true once `signal` aborts, or false after a bound: a check that never hangs. */
function abortsWithin(signal: AbortSignal | undefined, ms: number): Promise<boolean> {
  if (!signal) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms, false);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe("the patched node adapter: the client's going away is handed in as a signal (10)", () => {
  it('builds the Request without a signal and aborts options.signal when the client leaves', async () => {
    let arrived = () => {};
    const inside = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let handed: { request: Request; signal: AbortSignal | undefined } | undefined;
    const url = await serve({
      fetch: (request: Request, options?: { signal?: AbortSignal }) => {
        handed = { request, signal: options?.signal };
        arrived();
        // Never answers: only the client's leaving ends this exchange.
        return new Promise<Response>(() => undefined);
      },
    });
    sendThenLeave(url, '{"jsonrpc":"2.0","id":1,"method":"ping"}', {}, inside);
    await inside;
    expect(await abortsWithin(handed?.signal, 2_000), NOT_APPLIED).toBe(true);
    // The Request follows nothing: undici's signal plumbing is not paid for.
    expect(handed?.request.signal.aborted).toBe(false);
  });

  it('cancels a 2026-07-28 tool call through createMcpHandler when its client leaves', async () => {
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let toolSignal: AbortSignal | undefined;
    const url = await serve(
      createMcpHandler(() => {
        const mcp = addServer();
        mcp.registerTool(
          'wait',
          { description: 'Waits to be cancelled', inputSchema: z.object({}) },
          (_args, ctx) => {
            toolSignal = ctx.mcpReq.signal;
            started();
            return new Promise((resolve) => {
              ctx.mcpReq.signal.addEventListener('abort', () => resolve({ content: [] }));
            });
          },
        );
        return mcp;
      }),
    );
    const call = JSON.parse(CALL) as { params: { name: string; arguments: unknown } };
    call.params.name = 'wait';
    call.params.arguments = {};
    sendThenLeave(url, JSON.stringify(call), { ...CALL_HEADERS, 'mcp-name': 'wait' }, running);
    await running;
    expect(await abortsWithin(toolSignal, 2_000)).toBe(true);
  });
});

describe('the patched node adapter: a JSON answer kept as text is written as it is (11)', () => {
  it('writes the text of an answer settled without a body, with its Content-Length', async () => {
    const url = await serve(createMcpHandler(() => addServer(), { jsonText: true }));
    const answer = await exchange(url, 'POST', CALL, CALL_HEADERS);
    expect(answer.status).toBe(200);
    // Unpatched, the adapter sees a Response without a body and sends an empty one.
    expect(answer.body, NOT_APPLIED).not.toBe('');
    expect(JSON.parse(answer.body).result.content[0].text).toBe('5');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
    expect(answer.headers['content-type']).toBe('application/json');
  });

  it("answers a tool's isError result kept as text, with its status and body", async () => {
    const url = await serve(createMcpHandler(() => addServer(), { jsonText: true }));
    const call = JSON.parse(CALL) as { params: { arguments: unknown } };
    call.params.arguments = { a: 'two', b: 3 };
    const answer = await exchange(url, 'POST', JSON.stringify(call), CALL_HEADERS);
    const body = JSON.parse(answer.body || 'null') as { result?: { isError?: boolean }; error?: unknown };
    // Bad arguments are the tool's own isError result (200), answered through the same path.
    expect(answer.status).toBe(200);
    expect(body?.result?.isError).toBe(true);
  });
});
