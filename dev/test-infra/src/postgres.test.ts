import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, processAlive, startPostgres } from './postgres.js';
import { findPostgresBin, systemPrograms } from './system-binaries.js';

const available = systemPrograms('the throwaway PostgreSQL tests', ['postgres']);

describe.skipIf(!available.ok)('startPostgres', () => {
  let cluster: PostgresCluster;
  const psql = (url: string, sql: string) =>
    execFileSync(`${findPostgresBin()}/psql`, [url, '-At', '-c', sql], { encoding: 'utf8' }).trim();

  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy(), 60_000);

  it('serves SQL on a loopback port', () => {
    expect(psql(cluster.url, 'select 1 + 1')).toBe('2');
  });

  it('creates a database, and keeps its data over a restart', async () => {
    const url = await cluster.createDatabase('kept');
    psql(url, 'create table t (v int); insert into t values (7)');
    await cluster.restart();
    expect(psql(url, 'select v from t')).toBe('7');
  }, 60_000);

  it('refuses a database name that is not plain', async () => {
    await expect(cluster.createDatabase('x; drop')).rejects.toThrow(/not a plain database name/);
  });

  // A CI run once spent over 20 s in the immediate stop, past the after-hook's limit. A postmaster
  // that ignores signals (SIGSTOP) stands in for one that is too slow to stop: pg_ctl waits out its
  // own limit, then destroy() kills it. Without the kill, pg_ctl waits 60 s (past the after-hook's
  // limit) and gives up, and destroy() returns with the postmaster still there.
  it('destroys a cluster whose postmaster does not stop, in bounded time', async () => {
    const stuck = await startPostgres();
    const data = psql(stuck.url, 'show data_directory');
    const root = path.dirname(data);
    const pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
    process.kill(pid, 'SIGSTOP');
    let aliveAfterDestroy: boolean;
    try {
      await stuck.destroy();
      aliveAfterDestroy = processAlive(pid);
    } finally {
      try {
        process.kill(pid, 'SIGKILL'); // never leave a stopped server behind when the test fails
      } catch {}
    }
    expect(aliveAfterDestroy).toBe(false);
    expect(existsSync(root)).toBe(false);
  }, 90_000);
});
