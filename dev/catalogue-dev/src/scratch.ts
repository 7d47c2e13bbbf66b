/**
 * @module scratch
 * `catalogue-dev` as its own process on a scratch copy of a catalogue, for the tests and the
 * bench's dev loop that save into it: the copy sits inside the catalogue's package (so its imports
 * resolve through that package's node_modules) and goes when the process is stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built entry, from `src/` (tests) and from `dist/` alike. */
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** The first import of the catalogue's sources takes a second or two; a cold machine, more. */
const START_TIMEOUT_MS = 60_000;

export interface ScratchDev {
  /** The scratch copy's root. */
  root: string;
  /** e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string;
  /** Everything the process logged so far (stdout and stderr). */
  log(): string;
  /** Writes a file of the copy, relative to its root: a save. */
  save(relative: string, text: string): void;
  read(relative: string): string;
  /** Stops the process and removes the copy and its data folder. */
  stop(): Promise<void>;
}

/**
 * Copies `catalogue` (src, views, skills, package.json, the built views) and serves the copy on `port`,
 * with `env` (at least PATH) and the copy's own PORT, DATA_DIR and LOG_LEVEL.
 */
export async function startDevOnScratchCopy(
  catalogue: string,
  port: number,
  env: Record<string, string>,
): Promise<ScratchDev> {
  const root = mkdtempSync(path.join(catalogue, '.scratch-dev-'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'catalogue-dev-data-'));
  const file = (relative: string) => path.join(root, relative);
  // No tsconfig.json: the catalogue's own, one folder up, is the one that applies.
  for (const entry of ['src', 'views', 'skills', 'package.json']) {
    if (existsSync(path.join(catalogue, entry)))
      cpSync(path.join(catalogue, entry), file(entry), { recursive: true });
  }
  cpSync(path.join(catalogue, 'dist', 'views'), file('dist/views'), { recursive: true });
  // The views' tsconfig extends the repository's by a relative path: one folder deeper here.
  const viewsConfig = file('views/tsconfig.json');
  writeFileSync(viewsConfig, readFileSync(viewsConfig, 'utf8').replace('"../../../', '"../../../../'));

  let log = '';
  const child: ChildProcess = spawn(process.execPath, [CLI, root], {
    env: { ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!log.includes('saves reload it')) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`catalogue-dev did not start on the scratch copy:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    root,
    mcpUrl: `http://127.0.0.1:${port}/mcp`,
    log: () => log,
    save: (relative, text) => writeFileSync(file(relative), text),
    read: (relative) => readFileSync(file(relative), 'utf8'),
    stop,
  };
}
