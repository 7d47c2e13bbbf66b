/**
 * Three replicas with MCP_STATELESS=true behind HAProxy on one Postgres: with no session anywhere,
 * HAProxy round-robins every request, so an add and the list after it land on different replicas.
 * A 2025-11-25 client (initialize, then tools/call with no Mcp-Session-Id) and a 2026-07-28 one both
 * get right answers whichever replica serves them, and HAProxy's log shows all three did.
 * Prints the requests per replica.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSuccess, requestsPerReplica } from './test-support/expect.js';
import {
  callTool,
  initializeLegacy,
  type Outcome,
  sessionlessCallTool,
  type ToolResult,
  taskOf,
  titlesOf,
} from './test-support/mcp.js';
import { startTopology, TASKS_TABLE, type Topology, topologyAvailable } from './test-support/topology.js';

const available = topologyAvailable('the scale-out tests (services/scale-e2e)');

/** add_task + list_tasks pairs per era: 2 requests a round over 3 replicas, so every pair is split. */
const ROUNDS = 30;
/** Time for HAProxy to write the last request's log line. */
const LOG_FLUSH_MS = 200;

type Call = (url: string, name: string, args?: Record<string, unknown>) => Promise<Outcome<ToolResult>>;

describe.skipIf(!available)('three stateless replicas behind HAProxy', () => {
  let topology: Topology;
  beforeAll(async () => {
    topology = await startTopology({ env: { MCP_STATELESS: 'true' } });
  });
  afterAll(async () => topology?.close());

  /** ROUNDS adds, each followed by a list that must hold every task added so far; the LB's counts. */
  async function addAndList(era: string, call: Call): Promise<Record<string, number>> {
    const logBefore = topology.lb.log().length;
    const added: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const title = `${era} stateless ${round}`;
      const task = taskOf(
        expectSuccess(await call(topology.mcpUrl, 'add_task', { title }), `${era} add ${round}`),
      );
      expect(task?.title).toBe(title);
      added.push(title);
      // No retry and no wait: the list right after the acknowledgement, on another replica, has it.
      const listed = expectSuccess(await call(topology.mcpUrl, 'list_tasks'), `${era} list ${round}`);
      expect(titlesOf(listed), `${era} list ${round}`).toEqual(expect.arrayContaining(added));
    }
    const rows = await topology.query<{ title: string }>(
      `SELECT title FROM ${TASKS_TABLE} WHERE title LIKE $1 ORDER BY id`,
      [`${era} stateless %`],
    );
    expect(rows.map((row) => row.title)).toEqual(added);
    // HAProxy logs a request once it is done, which may be a moment after the client read the answer.
    await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_MS));
    const perReplica = requestsPerReplica(topology.lb.log().slice(logBefore));
    expect(Object.keys(perReplica).sort(), JSON.stringify(perReplica)).toEqual([
      'replica-1',
      'replica-2',
      'replica-3',
    ]);
    return perReplica;
  }

  it('serves a 2025-11-25 client without a session on whichever replica HAProxy picks', async () => {
    const logBefore = topology.lb.log().length;
    const initialize = await initializeLegacy(topology.mcpUrl);
    if (initialize.kind !== 'ok') throw new Error(`initialize through the LB: ${initialize.reason}`);
    expect(initialize.value.result?.protocolVersion).toBe('2025-11-25');
    expect(initialize.sessionId, 'a stateless replica issues no Mcp-Session-Id').toBeUndefined();
    const initialized = requestsPerReplica(topology.lb.log().slice(logBefore));

    const perReplica = await addAndList('2025', sessionlessCallTool);
    console.log(
      `[scale-e2e] stateless, 2025-11-25 without a session: initialize on ${Object.keys(initialized).join(', ')}, ` +
        `${ROUNDS} add + ${ROUNDS} list through the LB all right; per replica ${JSON.stringify(perReplica)}`,
    );
  });

  it('serves 2026-07-28 requests on whichever replica HAProxy picks', async () => {
    const perReplica = await addAndList('2026', callTool);
    console.log(
      `[scale-e2e] stateless, 2026-07-28: ${ROUNDS} add + ${ROUNDS} list through the LB all right; ` +
        `per replica ${JSON.stringify(perReplica)}`,
    );
  });

  it('answers GET /mcp with 405 through the LB: there is no session to stream', async () => {
    const response = await fetch(topology.mcpUrl, {
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    expect(response.status).toBe(405);
  });
});
