/**
 * @module system-binaries
 * Finds the system programs the scale-out tests need (PostgreSQL's server, HAProxy), and decides
 * what a test does without them: CI fails, a laptop skips with one line that says how to run them.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { testInfraEnv } from './env.js';

/** Debian and Ubuntu put each PostgreSQL major's server programs here. */
const DEBIAN_PG_ROOT = '/usr/lib/postgresql';

/** The folder with initdb and pg_ctl, or undefined when PostgreSQL's server is not installed. */
export function findPostgresBin(): string | undefined {
  const candidates: string[] = [];
  if (testInfraEnv.pgBin) candidates.push(testInfraEnv.pgBin);
  if (existsSync(DEBIAN_PG_ROOT)) {
    const majors = readdirSync(DEBIAN_PG_ROOT)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...majors.map((major) => path.join(DEBIAN_PG_ROOT, major, 'bin')));
  }
  candidates.push(...testInfraEnv.path.split(path.delimiter).filter(Boolean));
  return candidates.find(
    (dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')),
  );
}

/** The haproxy binary, or undefined when HAProxy is not installed. */
export function findHaproxy(): string | undefined {
  const candidates = [
    ...(testInfraEnv.haproxyBin ? [testInfraEnv.haproxyBin] : []),
    ...testInfraEnv.path.split(path.delimiter).map((dir) => path.join(dir, 'haproxy')),
    '/usr/sbin/haproxy',
  ];
  return candidates.find((file) => existsSync(file));
}

export interface Availability {
  /** True when every program was found. */
  ok: boolean;
  /** The one line a laptop run prints when it skips; empty when ok. */
  skipLine: string;
}

const INSTALL_HINT = {
  postgres: 'postgresql',
  haproxy: 'haproxy',
} as const;

/**
 * Whether the named programs are here. In CI a missing one throws, because CI installs them and a
 * skip there would hide a broken install step.
 */
export function systemPrograms(
  what: string,
  needs: ReadonlyArray<keyof typeof INSTALL_HINT>,
  /** The command to run again once they are installed. */
  again = 'pnpm test',
): Availability {
  const missing = needs.filter((need) => (need === 'postgres' ? !findPostgresBin() : !findHaproxy()));
  if (missing.length === 0) return { ok: true, skipLine: '' };
  const packages = missing.map((need) => INSTALL_HINT[need]).join(' ');
  if (testInfraEnv.ci) {
    throw new Error(
      `CI never skips ${what}, but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing: apt-get install -y ${packages}`,
    );
  }
  return {
    ok: false,
    skipLine: `skipped: ${what} need ${missing.join(' and ')} (sudo apt-get install -y ${packages}, then ${again} again)`,
  };
}

/**
 * The single line `pnpm test` prints on a machine without PostgreSQL or HAProxy, saying which tests
 * skip and what to install; undefined when nothing is missing. One package's vitest global setup
 * prints it (host-integration's), so a run that tests every package says it once. Throws in CI.
 */
export function skippedSystemTests(): string | undefined {
  const missing = (['postgres', 'haproxy'] as const).filter((need) =>
    need === 'postgres' ? !findPostgresBin() : !findHaproxy(),
  );
  if (missing.length === 0) return undefined;
  const available = systemPrograms('the Postgres and scale-out tests', missing);
  if (available.ok) return undefined;
  const which = missing.includes('postgres')
    ? 'the Postgres and scale-out tests (host-integration, scale-e2e, test-infra)'
    : 'the scale-out and HAProxy tests (scale-e2e, test-infra)';
  const names = missing.map((need) => (need === 'postgres' ? 'PostgreSQL' : 'HAProxy')).join(' and ');
  const packages = missing.map((need) => INSTALL_HINT[need]).join(' ');
  return `skipped: ${which} need ${names} (sudo apt-get install -y ${packages}, then pnpm test again)`;
}
