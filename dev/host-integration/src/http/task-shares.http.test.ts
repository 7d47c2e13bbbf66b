/**
 * Each user's share of MCP Tasks, over real HTTP with tokens from the test issuer, on SQLite (the
 * in-process queue) and on Postgres (pg-boss; skipped, with one line, without PostgreSQL): a user
 * past `MCP_MAX_ACTIVE_TASKS_PER_USER` gets an `isError` result that says why and what to do, while
 * another user still gets tasks; and one user's pile of reports does not make another user's short
 * report wait for all of it. The order is asserted, never a time; the wait is printed for the record.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { discoverIssuer, startHttpHost } from '@mcp-workshop/mcp-host';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import {
  type PostgresCluster,
  postModern,
  readMessages,
  startPostgres,
  startTestIssuer,
  systemPrograms,
  TASKS_CAPABILITIES,
  type TestIssuer,
} from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareWorkshop, TASKS_READ, TASKS_WRITE, workshopPolicy } from '../test-support/workshop.js';

const RESOURCE = 'http://127.0.0.1:3000/mcp';
/** A safety net for a loaded machine, never a bound the test measures. */
const WAIT_MS = 90_000;
/**
 * Alice's reports take three rounds of four slots; Bob's is one section. TASK_SHARES_SIZES=issue
 * uses the red team's sizes instead (ten-second reports behind which a one-section report waited
 * half a minute), to measure the wait as the issue did; the assertions are the same.
 */
const ISSUE_SIZES = process.env.TASK_SHARES_SIZES === 'issue';
const ALICES_REPORT = {
  name: 'generate_report',
  arguments: ISSUE_SIZES
    ? { topic: 'cities', steps: 5, delayMs: 2_000 }
    : { topic: 'cities', steps: 3, delayMs: 300 },
};
const BOBS_REPORT = {
  name: 'generate_report',
  arguments: { topic: 'weather', steps: 1, delayMs: ISSUE_SIZES ? 500 : 400 },
};
const SLOW_REPORT = { name: 'generate_report', arguments: { topic: 'cities', steps: 20, delayMs: 500 } };

interface Server {
  mcpUrl: string;
  close(): Promise<void>;
}

/** The server as `index.ts` builds it from the environment, with sign-in on. */
async function startServer(issuer: TestIssuer, env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mcp-task-shares-'));
  const logger = createSilentLogger();
  const workshop = prepareWorkshop({ DATA_DIR: dataDir, ...env }, logger);
  await workshop.open();
  await workshop.runtime?.start();
  const host = await startHttpHost({
    ...workshop.hostOptions(),
    logger,
    stateless: false,
    sessionTtlSeconds: 1800,
    maxSessions: 100,
    auth: { issuer: await discoverIssuer(issuer.issuer), resource: RESOURCE, policy: workshopPolicy() },
  });
  return {
    mcpUrl: host.mcpUrl,
    async close() {
      await host.close();
      await workshop.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function describeShares(backend: string, databaseUrl: (name: string) => Promise<Record<string, string>>) {
  describe(`each user's share of MCP Tasks: ${backend}`, () => {
    let issuer: TestIssuer;
    const servers: Server[] = [];
    beforeAll(async () => {
      issuer = await startTestIssuer();
    });
    afterAll(async () => {
      for (const server of servers.splice(0)) await server.close();
      await issuer?.close();
    });

    const start = async (name: string, maxActive: number) => {
      const server = await startServer(issuer, {
        ...(await databaseUrl(name)),
        MCP_MAX_ACTIVE_TASKS_PER_USER: String(maxActive),
      });
      servers.push(server);
      return server;
    };
    const tokenFor = (subject: string) =>
      issuer.token({
        subject,
        resource: RESOURCE,
        scopes: [TASKS_READ, TASKS_WRITE],
        clientId: 'test-client',
      });
    const call = async (server: Server, token: string, method: string, params: Record<string, unknown>) => {
      const response = await postModern(server.mcpUrl, method, params, {
        capabilities: TASKS_CAPABILITIES,
        headers: { authorization: `Bearer ${token}` },
      });
      const [message] = await readMessages(response);
      if (message?.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
      return (message?.result ?? {}) as Record<string, unknown>;
    };
    const untilDone = async (server: Server, token: string, taskId: unknown) => {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const task = await call(server, token, 'tasks/get', { taskId });
        if (task.status === 'completed') return task;
        if (Date.now() > deadline) throw new Error(`task ${String(taskId)} stayed ${String(task.status)}`);
        await sleep(25);
      }
    };
    const waitOf = (task: Record<string, unknown>) =>
      Date.parse(String(task.lastUpdatedAt)) - Date.parse(String(task.createdAt));

    it(
      "refuses a user's task past the cap with an isError result saying why and what to do, and no one else's",
      async () => {
        const server = await start('cap', 2);
        const alice = await tokenFor('alice');
        const bob = await tokenFor('bob');
        const first = await call(server, alice, 'tools/call', SLOW_REPORT);
        const second = await call(server, alice, 'tools/call', SLOW_REPORT);
        expect([first.resultType, second.resultType]).toEqual(['task', 'task']);
        const refused = await call(server, alice, 'tools/call', SLOW_REPORT);
        expect(refused).toMatchObject({ isError: true });
        expect(refused).not.toHaveProperty(['taskId']);
        expect(JSON.stringify(refused.content)).toContain(
          'Too many active tasks for this user: at most 2 may be working or waiting for input at once. ' +
            'Wait for one to finish, or cancel one with tasks/cancel, then call generate_report again.',
        );
        // Bob has a share of his own.
        expect((await call(server, bob, 'tools/call', SLOW_REPORT)).resultType).toBe('task');
        // A cancel frees a place at once.
        await call(server, alice, 'tasks/cancel', { taskId: first.taskId });
        const again = await call(server, alice, 'tools/call', SLOW_REPORT);
        expect(again.resultType).toBe('task');
        for (const task of [second, again])
          await call(server, alice, 'tasks/cancel', { taskId: task.taskId });
      },
      WAIT_MS,
    );

    it(
      "starts another user's short report before the first user's twelve queued reports drain",
      async () => {
        const server = await start('starve', 24);
        const alice = await tokenFor('alice');
        const bob = await tokenFor('bob');
        const alone = await untilDone(
          server,
          bob,
          (await call(server, bob, 'tools/call', BOBS_REPORT)).taskId,
        );
        const hers: unknown[] = [];
        for (let i = 0; i < 12; i += 1)
          hers.push((await call(server, alice, 'tools/call', ALICES_REPORT)).taskId);
        const his = await untilDone(server, bob, (await call(server, bob, 'tools/call', BOBS_REPORT)).taskId);
        const theirs = await Promise.all(hers.map((taskId) => untilDone(server, alice, taskId)));
        const finishedAt = (task: Record<string, unknown>) => Date.parse(String(task.lastUpdatedAt));
        const afterHis = theirs.filter((task) => finishedAt(task) > finishedAt(his)).length;
        console.warn(
          `${backend}: bob's one-section report took ${waitOf(alone)} ms alone and ${waitOf(his)} ms behind ` +
            `alice's 12; ${afterHis} of hers finished after his`,
        );
        // First in, first out, his would start only once all twelve of hers had, and end after them all.
        expect(afterHis).toBeGreaterThan(0);
      },
      WAIT_MS * 2,
    );
  });
}

describeShares('SQLite', async () => ({}));

const postgres = systemPrograms('the Postgres half of the task share tests', ['postgres']);
describe.skipIf(!postgres.ok)('on Postgres', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy(), 60_000);
  describeShares('Postgres', async (name) => ({
    DATABASE_URL: await cluster.createDatabase(`shares_${name}`),
  }));
});
