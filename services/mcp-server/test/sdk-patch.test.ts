/**
 * Proves that pnpm applied our patch to the installed MCP SDK (`patchedDependencies` in
 * pnpm-workspace.yaml). The patch edits the SDK's hashed dist chunks (`dist/src-<hash>.mjs` and
 * `.cjs`), so an SDK upgrade that drops or renames them loses the fix; these tests then fail and
 * say how to carry it over (patches/README.md).
 */
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/client';
import * as esmSdk from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { SDK_PATCH_NOT_APPLIED as NOT_APPLIED, SDK_PACKAGE } from '../src/test-support/sdk-patch.js';

type Sdk = typeof esmSdk;

/** The CommonJS build: the patch edits it too, so a `require` consumer gets the same fixes. */
const cjsSdk = createRequire(import.meta.url)(SDK_PACKAGE) as Sdk;

/** A JSON-RPC request that records every property read, to see whether the SDK parsed it at all. */
function watchedRequest(): { message: object; reads: PropertyKey[] } {
  const reads: PropertyKey[] = [];
  const message = new Proxy(
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    {
      get(target, key, receiver) {
        reads.push(key);
        return Reflect.get(target, key, receiver);
      },
    },
  );
  return { message, reads };
}

/** The JSON-RPC error code `logging/setLevel` with an unknown level gets from a server built with `sdk`. */
async function setLevelErrorCode(sdk: Sdk): Promise<unknown> {
  const server = new sdk.McpServer(
    { name: 'patch-check', version: '0.0.0' },
    { capabilities: { logging: {} } },
  );
  const client = new Client({ name: 'patch-check-client', version: '0.0.0' });
  const [clientSide, serverSide] = sdk.InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const error: unknown = await client
      .request({ method: 'logging/setLevel', params: { level: 'loud' as 'info' } })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    return (error as { code?: unknown } | undefined)?.code;
  } finally {
    await client.close();
    await server.close();
  }
}

describe.each([
  ['ESM build', esmSdk],
  ['CommonJS build', cjsSdk],
])('the patched MCP SDK (%s)', (_build, sdk) => {
  it('answers params that fail the method schema with -32602, not -32603 (typescript-sdk #2284)', async () => {
    expect(await setLevelErrorCode(sdk), NOT_APPLIED).toBe(-32602);
  });

  it('rejects a message without a "result" or "error" key before any schema reads it', () => {
    const { message, reads } = watchedRequest();
    expect(sdk.isJSONRPCResultResponse(message)).toBe(false);
    expect(sdk.isJSONRPCErrorResponse(message)).toBe(false);
    // Unpatched, zod's safeParse reads jsonrpc, id, … of every request before failing.
    expect(reads, NOT_APPLIED).toEqual([]);
  });

  it('still recognises real result and error responses, and rejects malformed ones', () => {
    expect(sdk.isJSONRPCResultResponse({ jsonrpc: '2.0', id: 1, result: {} })).toBe(true);
    expect(sdk.isJSONRPCErrorResponse({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'x' } })).toBe(
      true,
    );
    expect(sdk.isJSONRPCResultResponse({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } })).toBe(
      false,
    );
    expect(sdk.isJSONRPCResultResponse({ jsonrpc: '1.0', id: 1, result: {} })).toBe(false);
    expect(sdk.isJSONRPCErrorResponse({ jsonrpc: '2.0', id: 1, error: 'boom' })).toBe(false);
    for (const value of [null, undefined, 42, 'result', ['result']]) {
      expect(sdk.isJSONRPCResultResponse(value)).toBe(false);
      expect(sdk.isJSONRPCErrorResponse(value)).toBe(false);
    }
  });
});
