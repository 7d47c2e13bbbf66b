/**
 * Notifications across replicas: two in-process apps on their own loopback ports share one
 * Postgres database (DATABASE_URL), and a write through replica A reaches clients listening on
 * replica B, in both protocol eras: a 2026-07-28 `subscriptions/listen` stream and a
 * 2025-11-25 session's `resources/subscribe`. Skipped, with one line, without PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHttpHost } from '@mcp-workshop/mcp-host';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import type { TodoEvents } from '@mcp-workshop/task-store';
import {
  type JsonRpcMessage,
  openRawSession,
  openSseStream,
  type PostgresCluster,
  postModern,
  postOnSession,
  readMessages,
  startPostgres,
  systemPrograms,
} from '@mcp-workshop/test-infra';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareWorkshop } from '../test-support/workshop.js';

const available = systemPrograms('the cross-replica notification tests', ['postgres']);

/**
 * How long a test waits for a notice to cross replicas: a safety net, not a bar. How soon it
 * arrives depends on the machine; these tests check that it arrives, on the other replica.
 */
const CROSS_REPLICA_MS = 15_000;

interface Replica {
  mcpUrl: string;
  todoEvents: TodoEvents;
  close(): Promise<void>;
}

/** One replica as `index.ts` builds it from the environment, served on a loopback port of its own. */
async function startReplica(databaseUrl: string): Promise<Replica> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mcp-replica-'));
  const logger = createSilentLogger();
  const workshop = prepareWorkshop({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir }, logger);
  const host = await startHttpHost({
    ...workshop.hostOptions(),
    logger,
    stateless: false,
    sessionTtlSeconds: 1800,
    maxSessions: 100,
  });
  return {
    mcpUrl: host.mcpUrl,
    todoEvents: workshop.deps.todoEvents,
    async close() {
      await host.close();
      await workshop.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Replicas start LISTENing in the background; a probe write through A that B hears shows both are
 * (A's own local events come from LISTEN too). Bounded: Postgres is local and up.
 */
async function untilBothListen(a: Replica, b: Replica): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    let heardOnA = false;
    let heardOnB = false;
    const onA = () => {
      heardOnA = true;
    };
    const onB = () => {
      heardOnB = true;
    };
    a.todoEvents.on('listChanged', onA);
    b.todoEvents.on('listChanged', onB);
    try {
      await callTool(a.mcpUrl, 'add_task', { title: 'probe' });
      await vi.waitFor(() => expect(heardOnA && heardOnB).toBe(true), { timeout: 500, interval: 10 });
      return;
    } catch {
      // Not listening yet: try again.
    } finally {
      a.todoEvents.off('listChanged', onA);
      b.todoEvents.off('listChanged', onB);
    }
  }
  throw new Error('the replicas never heard each other over LISTEN/NOTIFY');
}

/** Calls a tool on a replica as a 2026-07-28 client would (one POST, no session). */
async function callTool(mcpUrl: string, name: string, args: Record<string, unknown>) {
  const [message] = await readMessages(await postModern(mcpUrl, 'tools/call', { name, arguments: args }));
  const task = (message?.result?.structuredContent as { task?: { id: number } } | undefined)?.task;
  if (!task) throw new Error(`${name} returned no task: ${JSON.stringify(message)}`);
  return task;
}

describe.skipIf(!available.ok)('notifications across replicas (shared Postgres)', () => {
  let cluster: PostgresCluster;
  let a: Replica;
  let b: Replica;

  beforeAll(async () => {
    cluster = await startPostgres();
    const url = await cluster.createDatabase('replicas');
    a = await startReplica(url);
    b = await startReplica(url);
    await untilBothListen(a, b);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await cluster?.destroy();
  }, 60_000);

  it('delivers resources/updated and list_changed on B for writes on A (2026-07-28 listen)', async () => {
    const task = await callTool(a.mcpUrl, 'add_task', { title: 'written on A' });
    const client = new Client(
      { name: 'listener-on-b', version: '0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(b.mcpUrl)));
    expect(client.getProtocolEra()).toBe('modern');
    const updated: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    client.setNotificationHandler('notifications/resources/list_changed', () => {
      listChanged += 1;
    });
    const subscription = await client.listen({
      resourceSubscriptions: [`tasks://${task.id}`],
      resourcesListChanged: true,
    });
    try {
      await callTool(a.mcpUrl, 'complete_task', { id: task.id });
      await vi.waitFor(() => expect(updated).toContain(`tasks://${task.id}`), {
        timeout: CROSS_REPLICA_MS,
        interval: 5,
      });

      await callTool(a.mcpUrl, 'add_task', { title: 'another on A' });
      await vi.waitFor(() => expect(listChanged).toBeGreaterThanOrEqual(1), {
        timeout: CROSS_REPLICA_MS,
        interval: 5,
      });
    } finally {
      await subscription.close();
      await client.close();
    }
  });

  it('delivers resources/updated to a 2025 session subscribed on B for a write on A', async () => {
    const task = await callTool(a.mcpUrl, 'add_task', { title: 'watched from B' });
    const sessionId = await openRawSession(b.mcpUrl);
    const stream = await openSseStream<JsonRpcMessage>(b.mcpUrl, {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    });
    try {
      // B reads the task from the shared database, so it knows the id A just handed out.
      const [subscribed] = await readMessages(
        await postOnSession(b.mcpUrl, sessionId, {
          jsonrpc: '2.0',
          id: 2,
          method: 'resources/subscribe',
          params: { uri: `tasks://${task.id}` },
        }),
      );
      expect(subscribed?.result).toEqual({});
      await callTool(a.mcpUrl, 'complete_task', { id: task.id });
      await stream.waitFor(
        (message) =>
          message.method === 'notifications/resources/updated' &&
          (message.params as { uri?: string } | undefined)?.uri === `tasks://${task.id}`,
        CROSS_REPLICA_MS,
      );
    } finally {
      stream.close();
      await fetch(b.mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    }
  });
});
