/**
 * @module postgres
 * A throwaway PostgreSQL cluster in a temporary folder, listening on a loopback port, for tests.
 * It runs Debian's real server binaries. PostgreSQL refuses to run as root, so when the tests run
 * as root (CI, containers) every command runs as the `postgres` user through runuser.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { findPostgresBin } from './system-binaries.js';

/** initdb on a 2-core machine takes 1–3 s; a slow CI box gets room, not a hang. */
const COMMAND_TIMEOUT_MS = 60_000;
/**
 * How long `destroy()` lets pg_ctl's immediate stop take before it kills the postmaster itself.
 * An immediate stop takes under a second here, 3 s with the machine saturated; a CI run once
 * spent over 20 s in it, which a test's after-hook cannot wait for. Killing is safe: the data
 * folder is deleted next.
 */
const STOP_WAIT_SECONDS = 8;
/** After SIGKILL the postmaster is gone at once; this bounds the wait for its pid to go. */
const KILL_WAIT_MS = 5_000;

export interface PostgresCluster {
  /** e.g. postgres://postgres@127.0.0.1:54321/postgres */
  url: string;
  port: number;
  /** A new, empty database on this cluster; returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown: open connections are cut) and starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops the server; `start()` brings it back on the same port with the same data. */
  stopServer(): Promise<void>;
  start(): Promise<void>;
  /** The server's log so far (its ERROR lines tell a test what the clients did wrong). */
  serverLog(): string;
  /**
   * Stops the server and deletes the folder, in bounded time: a postmaster that has not stopped
   * after an immediate stop's wait is killed. Safe to call twice.
   */
  destroy(): Promise<void>;
}

export interface PostgresOptions {
  /**
   * Keep fsync on, as a real deployment does. Off by default: tests don't need the test cluster to
   * survive a power cut, and fsync would only slow them; a benchmark comparing stores needs it on.
   */
  durable?: boolean;
}

export async function startPostgres({ durable = false }: PostgresOptions = {}): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found (apt-get install -y postgresql).');
  const root = mkdtempSync(path.join(tmpdir(), 'mcp-workshop-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) chownPostgres(root);
  const data = path.join(root, 'data');
  const port = await freePort();
  const run = (program: string, args: string[]) =>
    runAs(asRoot, path.join(bin, program), args, path.join(root, `${program}.out`));

  // trust on loopback only: a throwaway cluster with no password, reachable from this machine alone.
  await run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  const options = [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${root}'`,
    ...(durable ? [] : ['-c fsync=off']),
    '-c max_connections=200',
  ].join(' ');
  const log = path.join(root, 'server.log');
  let destroyed = false;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', log, '-w', '-t', '30', 'start']);
  const stopServer = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
  await start();

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      await run('psql', [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        '-c',
        `CREATE DATABASE ${name}`,
      ]);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async restart() {
      await stopServer();
      await start();
    },
    stopServer,
    start,
    serverLog: () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      const stopped = await run('pg_ctl', [
        '-D',
        data,
        '-m',
        'immediate',
        '-w',
        '-t',
        String(STOP_WAIT_SECONDS),
        'stop',
      ])
        .then(() => true)
        .catch(() => false);
      if (!stopped) await killPostmaster(data);
      // Asynchronous: tens of databases are thousands of files, and the worker's timers keep running.
      await rm(root, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/**
 * Kills the postmaster whose pid `postmaster.pid` names, if it is still alive, and waits for it to
 * go. Its children notice their parent's death and exit by themselves. Says so on stderr: a stop
 * that needed this is worth seeing in a test log.
 */
async function killPostmaster(data: string): Promise<void> {
  const pidFile = path.join(data, 'postmaster.pid');
  if (!existsSync(pidFile)) return; // not running: stopServer() ran, or the server never started
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n', 1)[0]);
  if (!Number.isInteger(pid) || pid <= 1 || !processAlive(pid)) return;
  const log = path.join(path.dirname(data), 'server.log');
  const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-1500) : '';
  process.stderr.write(
    `test-infra: pg_ctl stop did not end postmaster ${pid} in ${STOP_WAIT_SECONDS} s; killing it. Its log ends:\n${tail}\n`,
  );
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return; // it went by itself between the check and the kill
  }
  const deadline = Date.now() + KILL_WAIT_MS;
  while (processAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/** Alive and ours to signal. A zombie (dead, not yet reaped by whoever adopted it) counts as gone. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false; // ESRCH: gone; EPERM: the pid now belongs to another user's process
  }
  const stat = path.join('/proc', String(pid), 'stat');
  return !(existsSync(stat) && /\) Z /.test(readFileSync(stat, 'utf8')));
}

function chownPostgres(dir: string): void {
  // `id` is POSIX and present wherever runuser is; no extra package for a user lookup.
  const read = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(dir, read('-u'), read('-g'));
}

/**
 * Runs a PostgreSQL program, as `postgres` when we are root. Its output goes to a file, never to a
 * pipe: the server pg_ctl starts would inherit the pipe, and whoever reads it would wait forever.
 */
function runAs(asRoot: boolean, program: string, args: string[], outputFile: string): Promise<void> {
  const [command, commandArgs] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', program, ...args]]
    : [program, args];
  return new Promise((resolve, reject) => {
    const out = openSync(outputFile, 'w');
    const child = spawn(command, commandArgs, { stdio: ['ignore', out, out], timeout: COMMAND_TIMEOUT_MS });
    closeSync(out);
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) return resolve();
      const output = readFileSync(outputFile, 'utf8').slice(-2000);
      reject(new Error(`${path.basename(program)} ${args.join(' ')} failed (${code}):\n${output}`));
    });
  });
}
