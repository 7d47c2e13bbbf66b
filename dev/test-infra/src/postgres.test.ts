import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, startPostgres } from './postgres.js';
import { findPostgresBin, systemPrograms } from './system-binaries.js';

const available = systemPrograms('the throwaway PostgreSQL tests', ['postgres']);

describe.skipIf(!available.ok)('startPostgres', () => {
  let cluster: PostgresCluster;
  const psql = (url: string, sql: string) =>
    execFileSync(`${findPostgresBin()}/psql`, [url, '-At', '-c', sql], { encoding: 'utf8' }).trim();

  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy());

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
});
