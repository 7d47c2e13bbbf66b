/**
 * The SDK patch patches/series/05-server-close-error-on-demand.patch (doc/upstream/05-…): a
 * per-request server closes right after sending its answer, and unpatched that close built a
 * `ConnectionClosed` SdkError, stack trace and all, to abort the request it had just answered.
 * Patched, an answered request is no longer in flight and a normal close builds no error; a close
 * while a request is still running aborts it exactly as before. Both builds, ESM and CommonJS.
 */
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/client';
import * as esmSdk from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SDK_PATCH_NOT_APPLIED as NOT_APPLIED, SDK_PACKAGE } from './test-support/sdk-patch.js';

type Sdk = typeof esmSdk;
const cjsSdk = createRequire(import.meta.url)(SDK_PACKAGE) as Sdk;

/**
 * Counts the SdkErrors a build constructs. The constructor assigns `this.name`, so a setter on the
 * prototype sees every construction (subclasses included) without replacing the class.
 */
function countSdkErrors(sdk: Sdk) {
  const prototype = sdk.SdkError.prototype;
  let count = 0;
  Object.defineProperty(prototype, 'name', {
    configurable: true,
    get: () => 'SdkError',
    set(this: Error, value: string) {
      count += 1;
      Object.defineProperty(this, 'name', { value, writable: true, configurable: true, enumerable: false });
    },
  });
  return { count: () => count, restore: () => Reflect.deleteProperty(prototype, 'name') };
}

const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'patch-check', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-07-28 tools/call as the per-request entry receives it: no session, one request. */
function modernCall(name: string): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name, arguments: { a: 2, b: 3 }, _meta: ENVELOPE },
    }),
  });
}

let restore: (() => unknown) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe.each([
  ['ESM build', esmSdk],
  ['CommonJS build', cjsSdk],
])('the patched MCP SDK, closing a server (%s)', (_build, sdk) => {
  /** createMcpHandler with one tool that keeps the signal it was given, as a per-request factory. */
  function perRequestHandler() {
    const signals: AbortSignal[] = [];
    const handler = sdk.createMcpHandler(() => {
      const server = new sdk.McpServer({ name: 'patch-check', version: '0.0.0' });
      server.registerTool(
        'add',
        { description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }) },
        async ({ a, b }, ctx) => {
          signals.push(ctx.mcpReq.signal);
          return { content: [{ type: 'text', text: String(a + b) }] };
        },
      );
      return server;
    });
    return { handler, signals };
  }

  it('answers a call on a per-request server without building a ConnectionClosed error', async () => {
    const { handler, signals } = perRequestHandler();
    const counter = countSdkErrors(sdk);
    restore = counter.restore;
    const response = await handler.fetch(modernCall('add'));
    const body = await response.text();
    // The server closes once its answer is out; give that close its turn.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(response.status).toBe(200);
    expect(body).toContain('"text":"5"');
    expect(signals).toHaveLength(1);
    expect(counter.count(), NOT_APPLIED).toBe(0);
    await handler.close();
  });

  it("leaves an answered request's signal alone when its server closes", async () => {
    const { handler, signals } = perRequestHandler();
    await (await handler.fetch(modernCall('add'))).text();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Unpatched, the close aborted the finished call's signal with a ConnectionClosed SdkError.
    expect(signals[0]?.aborted, NOT_APPLIED).toBe(false);
    await handler.close();
  });

  it('still aborts a request that is running when the server closes, with ConnectionClosed', async () => {
    const server = new sdk.McpServer({ name: 'patch-check', version: '0.0.0' });
    let seen: AbortSignal | undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    server.registerTool('wait', { description: 'Waits until aborted' }, async (ctx) => {
      seen = ctx.mcpReq.signal;
      started();
      await new Promise((resolve) => ctx.mcpReq.signal.addEventListener('abort', resolve, { once: true }));
      return { content: [] };
    });
    const client = new Client({ name: 'patch-check-client', version: '0.0.0' });
    const [clientSide, serverSide] = sdk.InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    const call = client.callTool({ name: 'wait', arguments: {} }).catch((error: unknown) => error);
    await running;
    const counter = countSdkErrors(sdk);
    restore = counter.restore;
    await server.close();
    await call;
    expect(seen?.aborted).toBe(true);
    expect(sdk.SdkError.isInstance(seen?.reason)).toBe(true);
    expect((seen?.reason as { code?: unknown } | undefined)?.code).toBe(sdk.SdkErrorCode.ConnectionClosed);
    // One error, shared by everything the close settles.
    expect(counter.count()).toBe(1);
  });

  it('builds no error when a connected server with nothing in flight closes', async () => {
    const server = new sdk.McpServer({ name: 'patch-check', version: '0.0.0' });
    const client = new Client({ name: 'patch-check-client', version: '0.0.0' });
    const [clientSide, serverSide] = sdk.InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    const counter = countSdkErrors(sdk);
    restore = counter.restore;
    await server.close();
    expect(counter.count(), NOT_APPLIED).toBe(0);
  });
});
