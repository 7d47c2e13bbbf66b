/**
 * @module test-support/topology
 * The compose `scale` profile without Docker: a throwaway PostgreSQL cluster, N replicas of the built
 * server sharing one database in it, and the real HAProxy in front with deploy/haproxy/haproxy.cfg.
 * Partners: `replica.ts` (one server process), `mcp.ts` (how the tests talk to it).
 */
import {
  type PostgresCluster,
  type RunningHaproxy,
  startHaproxy,
  startPostgres,
  systemPrograms,
} from '@mcp-workshop/test-infra';
import pg from 'pg';
import { type Replica, type ReplicaOptions, startReplica } from './replica.js';

/** The Postgres adapter's table, which the tests read directly to check what was stored. */
export const TASKS_TABLE = 'tasks';

/** Whether this machine can run the topology; vitest.global-setup.ts prints the one skip line. */
export function topologyAvailable(what: string): boolean {
  const available = systemPrograms(what, ['postgres', 'haproxy']);
  return available.ok;
}

export interface Topology {
  postgres: PostgresCluster;
  databaseUrl: string;
  replicas: Replica[];
  lb: RunningHaproxy;
  /** The load balancer's MCP endpoint, e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string;
  /** One SQL query on the shared database, straight to Postgres (not through a replica). */
  query<Row extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

export interface TopologyOptions {
  replicas?: number;
  env?: ReplicaOptions['env'];
}

export async function startTopology(options: TopologyOptions = {}): Promise<Topology> {
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const postgres = await startPostgres();
    closers.push(() => postgres.destroy());
    const databaseUrl = await postgres.createDatabase('scale');
    // One at a time, so the first replica runs the migrations and the others start on a migrated database;
    // concurrent starts have their own test (migrations.e2e.test.ts).
    const replicas: Replica[] = [];
    for (let index = 0; index < (options.replicas ?? 3); index += 1) {
      const replica = await startReplica({
        name: 'ABCDEFGH'[index] ?? `R${index}`,
        databaseUrl,
        env: options.env,
      });
      replicas.push(replica);
      closers.push(() => replica.stop());
    }
    const lb = await startHaproxy({ backends: replicas.map((replica) => ({ port: replica.port })) });
    closers.push(() => lb.stop());
    return {
      postgres,
      databaseUrl,
      replicas,
      lb,
      mcpUrl: `${lb.url}/mcp`,
      query: (sql, params) => query(databaseUrl, sql, params),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A fresh connection per query: a test that restarts Postgres must not hold a stale one. */
export async function query<Row extends pg.QueryResultRow>(
  databaseUrl: string,
  sql: string,
  params: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<Row>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
