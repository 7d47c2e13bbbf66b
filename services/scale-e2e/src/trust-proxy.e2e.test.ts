/**
 * Per-client rate limits behind HAProxy. Every request reaches the replica from HAProxy's address, so
 * without MCP_TRUST_PROXY all clients share one bucket; with MCP_TRUST_PROXY=loopback the replica
 * takes the client from X-Forwarded-For (HAProxy appends the address it saw, `option forwardfor`).
 * One replica behind the LB, so every request counts in the same process's buckets.
 * Clients A and B both connect from 127.0.0.1 and name themselves in X-Forwarded-For.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCallTool } from './test-support/mcp.js';
import { startTopology, type Topology, topologyAvailable } from './test-support/topology.js';

const available = topologyAvailable('the scale-out tests (services/scale-e2e)');

/** tools/call per client per minute: small, so a test reaches it in a few requests. */
const CALL_LIMIT = 3;
/** Everything else (HAProxy's health checks included, 2 a second): far from the limit. */
const HANDSHAKE_LIMIT = 10_000;
const A = { 'x-forwarded-for': '203.0.113.7' };
const B = { 'x-forwarded-for': '198.51.100.9' };

function limitedEnv(trustProxy: boolean): Record<string, string> {
  return {
    MCP_RATE_LIMIT_PER_MINUTE: String(CALL_LIMIT),
    MCP_HANDSHAKE_RATE_LIMIT_PER_MINUTE: String(HANDSHAKE_LIMIT),
    ...(trustProxy ? { MCP_TRUST_PROXY: 'loopback' } : {}),
  };
}

/** One list_tasks as `client`: its HTTP status, Retry-After and JSON-RPC error, if any. */
async function call(topology: Topology, client: Record<string, string>) {
  const { status, headers, messages } = await rawCallTool(topology.mcpUrl, 'list_tasks', {}, client);
  const message = messages[0];
  return {
    status,
    retryAfter: headers.get('retry-after'),
    error: message?.error as { code: number; message: string; data?: unknown } | undefined,
    isError: (message?.result as { isError?: boolean } | undefined)?.isError,
  };
}

/** `count` calls that must all be served (200, a result that is not isError). */
async function expectServed(topology: Topology, client: Record<string, string>, count: number, who: string) {
  for (let i = 0; i < count; i += 1) {
    const answer = await call(topology, client);
    expect(answer, `${who} call ${i + 1}`).toMatchObject({ status: 200, error: undefined });
    expect(answer.isError, `${who} call ${i + 1}`).not.toBe(true);
  }
}

/** A refusal as the limit answers it: 429, Retry-After within the minute, a JSON-RPC error naming the limit. */
function expectRefused(answer: Awaited<ReturnType<typeof call>>, who: string): number {
  expect(answer.status, `${who}: ${JSON.stringify(answer)}`).toBe(429);
  const retryAfter = Number(answer.retryAfter);
  expect(retryAfter, `${who}: Retry-After ${answer.retryAfter}`).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(answer.error).toMatchObject({
    code: -32_000,
    message: expect.stringContaining(`at most ${CALL_LIMIT} tool calls a minute per client`),
    data: { retryAfterSeconds: retryAfter },
  });
  return retryAfter;
}

describe.skipIf(!available)('rate limits per client behind HAProxy', () => {
  describe('with MCP_TRUST_PROXY=loopback', () => {
    let topology: Topology;
    beforeAll(async () => {
      topology = await startTopology({ replicas: 1, env: limitedEnv(true) });
    });
    afterAll(async () => topology?.close());

    it("counts A and B apart by X-Forwarded-For: A's 4th call is refused, B keeps its own bucket", async () => {
      await expectServed(topology, A, CALL_LIMIT, 'A');
      const refused = await call(topology, A);
      const retryAfter = expectRefused(refused, `A call ${CALL_LIMIT + 1}`);
      // B comes from the same 127.0.0.1 through the same HAProxy, yet has all of its own calls.
      await expectServed(topology, B, CALL_LIMIT, 'B');
      // Each bucket is full now, and only its own client's calls count against it.
      expectRefused(await call(topology, B), `B call ${CALL_LIMIT + 1}`);
      expectRefused(await call(topology, A), `A call ${CALL_LIMIT + 2}`);
      console.log(
        `[scale-e2e] trust proxy loopback, limit ${CALL_LIMIT}/min, 1 replica: A (203.0.113.7) refused on call ` +
          `${CALL_LIMIT + 1} (429, Retry-After ${retryAfter} s), B (198.51.100.9) served ${CALL_LIMIT} calls from its own bucket`,
      );
    });
  });

  describe('without MCP_TRUST_PROXY (control)', () => {
    let topology: Topology;
    beforeAll(async () => {
      topology = await startTopology({ replicas: 1, env: limitedEnv(false) });
    });
    afterAll(async () => topology?.close());

    it("puts A and B in one bucket, HAProxy's address: B is refused once A has used the limit", async () => {
      await expectServed(topology, A, CALL_LIMIT, 'A');
      const retryAfter = expectRefused(await call(topology, B), 'B call 1');
      expectRefused(await call(topology, A), `A call ${CALL_LIMIT + 1}`);
      console.log(
        `[scale-e2e] no trust proxy, limit ${CALL_LIMIT}/min, 1 replica: after A's ${CALL_LIMIT} calls B's first ` +
          `call is refused (429, Retry-After ${retryAfter} s): one bucket for the LB's 127.0.0.1`,
      );
    });
  });
});
