/**
 * Per-client rate limits behind HAProxy. Every request reaches the replica from HAProxy's address, so
 * without MCP_TRUST_PROXY all clients share one bucket. With MCP_TRUST_PROXY naming the balancer's
 * address and nothing else (127.0.0.1 here, as compose names mcp-lb's fixed address), the replica
 * takes the client from X-Forwarded-For, which deploy/haproxy/haproxy.cfg overwrites with the peer
 * address it saw: a client can't pick its bucket by writing that header or another one like it.
 * Real clients differ by their source address: 127.0.0.2, 127.0.0.3… all reach HAProxy on 127.0.0.1.
 * One replica behind the LB, so every request counts in the same process's buckets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCallTool } from './test-support/mcp.js';
import { startTopology, type Topology, topologyAvailable } from './test-support/topology.js';

const available = topologyAvailable('the scale-out tests (services/scale-e2e)');

/** tools/call per client per minute: small, so a test reaches it in a few requests. */
const CALL_LIMIT = 2;
/** Everything else (HAProxy's health checks included, 2 a second): far from the limit. */
const HANDSHAKE_LIMIT = 10_000;
/** HAProxy connects to the replica from here: the one proxy a replica may believe. */
const BALANCER = '127.0.0.1';

/** A client: the address it connects from and the headers it sends. */
interface Client {
  from: string;
  headers?: Record<string, string | string[]>;
}
const A: Client = { from: '127.0.0.2' };
const B: Client = { from: '127.0.0.3' };

function limitedEnv(trustProxy: boolean): Record<string, string> {
  return {
    MCP_RATE_LIMIT_PER_MINUTE: String(CALL_LIMIT),
    MCP_HANDSHAKE_RATE_LIMIT_PER_MINUTE: String(HANDSHAKE_LIMIT),
    ...(trustProxy ? { MCP_TRUST_PROXY: BALANCER } : {}),
  };
}

/** One list_tasks as `client`: its HTTP status, Retry-After and JSON-RPC error, if any. */
async function call(topology: Topology, client: Client) {
  const { status, headers, messages } = await rawCallTool(
    topology.mcpUrl,
    'list_tasks',
    {},
    client.headers ?? {},
    client.from,
  );
  const message = messages[0];
  return {
    status,
    retryAfter: headers.get('retry-after'),
    error: message?.error as { code: number; message: string; data?: unknown } | undefined,
    isError: (message?.result as { isError?: boolean } | undefined)?.isError,
  };
}

/** Calls that must all be served (200, a result that is not isError), one per client given. */
async function expectServed(topology: Topology, clients: Client[], who: string) {
  for (const [i, client] of clients.entries()) {
    const answer = await call(topology, client);
    expect(answer, `${who} call ${i + 1} ${JSON.stringify(client)}`).toMatchObject({
      status: 200,
      error: undefined,
    });
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

/** `count` copies of `client`, for a client that calls again and again the same way. */
const times = (client: Client, count: number): Client[] => Array.from({ length: count }, () => client);

/**
 * Everything a client could write to pass for someone else, each from `from`: X-Forwarded-For with
 * a new address every time (alone, as a list ending in a trusted hop, repeated on several lines,
 * oversized), and the other headers that name a client.
 */
function spoofs(from: string): Client[] {
  return [
    { from, headers: { 'x-forwarded-for': '203.0.113.1' } },
    { from, headers: { 'x-forwarded-for': '203.0.113.2' } },
    { from, headers: { 'x-forwarded-for': '203.0.113.3' } },
    { from, headers: { 'x-forwarded-for': `198.51.100.4, ${BALANCER}` } },
    { from, headers: { 'x-forwarded-for': ['198.51.100.5', BALANCER] } },
    { from, headers: { 'x-forwarded-for': `${'198.51.100.6, '.repeat(300)}198.51.100.7` } },
    { from, headers: { forwarded: 'for=198.51.100.8', 'x-real-ip': '198.51.100.9' } },
    // The address of a real client that has not called yet: not a way into its bucket either.
    { from, headers: { 'x-forwarded-for': '127.0.0.9' } },
  ];
}

describe.skipIf(!available)('rate limits per client behind HAProxy', () => {
  describe(`with MCP_TRUST_PROXY=${BALANCER}, the balancer only`, () => {
    let topology: Topology;
    beforeAll(async () => {
      topology = await startTopology({ replicas: 1, env: limitedEnv(true) });
    });
    afterAll(async () => topology?.close());

    it("counts real clients A and B apart: A's 3rd call is refused, B keeps its own bucket", async () => {
      await expectServed(topology, times(A, CALL_LIMIT), 'A');
      const retryAfter = expectRefused(await call(topology, A), `A call ${CALL_LIMIT + 1}`);
      // B reaches the same HAProxy from another address, and has all of its own calls.
      await expectServed(topology, times(B, CALL_LIMIT), 'B');
      // Each bucket is full now, and only its own client's calls count against it.
      expectRefused(await call(topology, B), `B call ${CALL_LIMIT + 1}`);
      expectRefused(await call(topology, A), `A call ${CALL_LIMIT + 2}`);
      console.log(
        `[scale-e2e] trust proxy ${BALANCER}, limit ${CALL_LIMIT}/min, 1 replica: A (${A.from}) refused on call ` +
          `${CALL_LIMIT + 1} (429, Retry-After ${retryAfter} s), B (${B.from}) served ${CALL_LIMIT} calls from its own bucket`,
      );
    });

    it.each([
      // The balancer's own address, which the replica trusts: were HAProxy to append to the client's
      // X-Forwarded-For, the replica would step over this hop and take the client's word.
      { from: BALANCER },
      { from: '127.0.0.4' },
    ])(
      'gives no fresh budget to spoofed client headers from $from: one bucket for all of them',
      async ({ from }) => {
        const calls = spoofs(from);
        const rest = calls.slice(CALL_LIMIT);
        await expectServed(topology, calls.slice(0, CALL_LIMIT), `spoofer ${from}`);
        for (const [i, spoof] of rest.entries()) {
          expectRefused(
            await call(topology, spoof),
            `spoofer ${from} call ${CALL_LIMIT + i + 1} ${JSON.stringify(spoof.headers)}`,
          );
        }
        // The refusals are this client's bucket, not a limit on everyone: a client new to the replica is served.
        const fresh: Client = { from: from === BALANCER ? '127.0.0.5' : '127.0.0.6' };
        await expectServed(topology, [fresh], `fresh client ${fresh.from}`);
        console.log(
          `[scale-e2e] trust proxy ${BALANCER}, limit ${CALL_LIMIT}/min: ${calls.length} calls from ${from} ` +
            `with ${calls.length} spoofed identities, ${rest.length} refused (429); ${fresh.from} still served`,
        );
      },
    );
  });

  describe('without MCP_TRUST_PROXY (control)', () => {
    let topology: Topology;
    beforeAll(async () => {
      topology = await startTopology({ replicas: 1, env: limitedEnv(false) });
    });
    afterAll(async () => topology?.close());

    it("puts A and B in one bucket, HAProxy's address: B is refused once A has used the limit", async () => {
      await expectServed(topology, times(A, CALL_LIMIT), 'A');
      const retryAfter = expectRefused(await call(topology, B), 'B call 1');
      expectRefused(await call(topology, A), `A call ${CALL_LIMIT + 1}`);
      console.log(
        `[scale-e2e] no trust proxy, limit ${CALL_LIMIT}/min, 1 replica: after A's ${CALL_LIMIT} calls B's first ` +
          `call is refused (429, Retry-After ${retryAfter} s): one bucket for the LB's ${BALANCER}`,
      );
    });
  });
});
