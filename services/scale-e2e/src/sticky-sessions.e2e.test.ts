/**
 * 2025-11-25 sessions through HAProxy: each stays on the replica that created it, and when that
 * replica is killed the next request on the session gets 404 "session not found", which tells the
 * client to initialize again. A 5xx there would be a bug.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFigure } from './test-support/doc-figures.js';
import { expectSuccess } from './test-support/expect.js';
import { openSession, rawSessionPost, sessionCallTool } from './test-support/mcp.js';
import type { Replica } from './test-support/replica.js';
import { startTopology, type Topology, topologyAvailable } from './test-support/topology.js';

const available = topologyAvailable('the scale-out tests (services/scale-e2e)');

/** Enough sessions that round-robin puts some on every replica. */
const SESSIONS = 9;
const CALLS_PER_SESSION = 10;
/** fall 2 × inter 500 ms in haproxy.cfg, plus slack for a busy box. */
const MARKED_DOWN_MS = 3_000;

const LIST = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_tasks', arguments: {} } };

/** undici's "other side closed" (or a reset): the connection ended before any response byte. */
function closedConnection(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } })?.cause?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
}

describe.skipIf(!available)('2025 sessions through HAProxy', () => {
  let topology: Topology;
  beforeAll(async () => {
    topology = await startTopology();
  });
  afterAll(async () => topology?.close());

  /** The replica that holds a session: the only one that knows its id when asked directly. */
  async function ownerOf(sessionId: string): Promise<Replica> {
    const owners: Replica[] = [];
    for (const replica of topology.replicas) {
      const { status } = await rawSessionPost(replica.mcpUrl, sessionId, LIST);
      if (status === 200) owners.push(replica);
      else expect(status, `${replica.name} on a session it does not hold`).toBe(404);
    }
    expect(owners).toHaveLength(1);
    return owners[0] as Replica;
  }

  it('keeps each session on its replica, and answers 404 (never 5xx) once that replica is killed', async () => {
    const sessions: Array<{ id: string; owner: Replica }> = [];
    for (let i = 0; i < SESSIONS; i += 1) {
      const opened = await openSession(topology.mcpUrl);
      if (opened.kind !== 'ok') throw new Error(`initialize through the LB: ${opened.reason}`);
      sessions.push({ id: opened.value, owner: await ownerOf(opened.value) });
    }
    const spread = new Set(sessions.map((session) => session.owner.name));
    expect(spread.size, 'initialize is spread over the replicas').toBe(topology.replicas.length);

    for (const session of sessions) {
      for (let call = 0; call < CALLS_PER_SESSION; call += 1) {
        expectSuccess(
          await sessionCallTool(topology.mcpUrl, session.id, 'list_tasks'),
          `call ${call} on ${session.id}`,
        );
      }
    }

    const victim = sessions[0]?.owner as Replica;
    await victim.kill();
    const orphans = sessions.filter((session) => session.owner === victim);
    const survivors = sessions.filter((session) => session.owner !== victim);
    // A client may find a kept-alive connection closed under it (HAProxy closes the client's connection
    // when the idle one to the killed replica it reused fails, as keep-alive allows) and send its read
    // again once, as HTTP clients do. An HTTP error, or a second closed connection, is a bug.
    let resent = 0;
    const postOrResendOnce = async (sessionId: string) => {
      try {
        return await rawSessionPost(topology.mcpUrl, sessionId, LIST);
      } catch (error) {
        if (!closedConnection(error)) throw error;
        resent += 1;
        return rawSessionPost(topology.mcpUrl, sessionId, LIST);
      }
    };
    const callOrResendOnce = async (sessionId: string) => {
      const outcome = await sessionCallTool(topology.mcpUrl, sessionId, 'list_tasks');
      if (outcome.kind !== 'retryable' || !outcome.reason.startsWith('connection')) return outcome;
      resent += 1;
      return sessionCallTool(topology.mcpUrl, sessionId, 'list_tasks');
    };
    const expectNotFound = async (label: string) => {
      for (const orphan of orphans) {
        const { status, messages } = await postOrResendOnce(orphan.id);
        expect(status, `${label}: ${JSON.stringify(messages)}`).toBe(404);
        expect(messages[0]?.error).toMatchObject({
          code: -32001,
          message: expect.stringMatching(/session not found/i),
        });
      }
      for (const survivor of survivors) {
        expectSuccess(await callOrResendOnce(survivor.id), `${label}: survivor`);
      }
    };
    // At once, before the health check has noticed, and again once it has taken the replica out.
    await expectNotFound('right after the kill');
    await new Promise((resolve) => setTimeout(resolve, MARKED_DOWN_MS));
    expect(topology.lb.log()).toMatch(new RegExp(`replica-${topology.replicas.indexOf(victim) + 1} is DOWN`));
    await expectNotFound('after the replica was marked down');

    // The client's way out: initialize again, on a live replica.
    const reopened = await openSession(topology.mcpUrl);
    if (reopened.kind !== 'ok') throw new Error(`initialize again: ${reopened.reason}`);
    expectSuccess(await sessionCallTool(topology.mcpUrl, reopened.value, 'list_tasks'), 'new session');
    reportFigure(
      `[scale-e2e] ${SESSIONS} sessions over ${spread.size} replicas, ${SESSIONS * CALLS_PER_SESSION} calls all on ` +
        `their own replica; after kill -9 of ${victim.name}: ${orphans.length} sessions → 404, ` +
        `${survivors.length} still served; ${resent} sent again once on a closed connection`,
    );
  });
});
