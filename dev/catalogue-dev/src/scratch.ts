/**
 * @module scratch
 * `catalogue-dev` as its own process on a scratch copy of a catalogue, for the tests and the
 * bench's dev loop that save into it: the copy sits inside the catalogue's package (so its imports
 * resolve through that package's node_modules) and goes when the process is stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The catalogue's one list of tools; in the copy, the catalogue's list plus the tools a test adds. */
const TOOL_LIST = 'src/tools/index.ts';
/** Where the copy keeps the catalogue's own list, beside its tools so that its imports still resolve. */
const CATALOGUE_TOOL_LIST = 'src/tools/index.catalogue.ts';

/** The copy's `tools/index.ts`: the catalogue's tools, then `added`. */
function scratchToolList(added: ReadonlyArray<{ file: string; exportName: string }>): string {
  return [
    "// The scratch copy's tool list: the catalogue's own, then the tools a test added.",
    "import { tools as catalogueTools } from './index.catalogue.js';",
    "import type { WorkshopTool } from '../deps.js';",
    ...added.map(({ file, exportName }) => `import { ${exportName} } from './${file}.js';`),
    '',
    `export const tools: readonly WorkshopTool[] = [...catalogueTools${added.map(({ exportName }) => `, ${exportName}`).join('')}];`,
    '',
  ].join('\n');
}

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
  /**
   * Saves `src/tools/<file>.ts` with `source`, which exports `exportName`, and then the copy's tool
   * list with it added: two saves, as a person makes them.
   */
  addTool(file: string, exportName: string, source: string): void;
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
  const scratch = makeScratchCatalogue(catalogue);
  const { root, remove } = scratch;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'catalogue-dev-data-'));
  const file = (relative: string) => path.join(root, relative);

  let log = '';
  const child: ChildProcess = spawn(process.execPath, [CLI, root], {
    // The type check is a second compiler on the machine: a test that wants it sets it to true.
    env: {
      CATALOGUE_DEV_TYPECHECK: 'false',
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
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
    remove();
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
    addTool: scratch.addTool,
    stop,
  };
}

/** A scratch copy of a catalogue, for a test to save into. */
export interface ScratchCatalogue {
  root: string;
  /** As `ScratchDev.addTool`. */
  addTool(file: string, exportName: string, source: string): void;
  /** Deletes the copy. */
  remove(): void;
}

/**
 * A scratch copy of `catalogue` (src, views, skills, package.json, the built views) inside its
 * package, with a tsconfig.json that checks the copy's own sources; `remove()` deletes it.
 */
export function makeScratchCatalogue(catalogue: string): ScratchCatalogue {
  const root = mkdtempSync(path.join(catalogue, '.scratch-dev-'));
  const file = (relative: string) => path.join(root, relative);
  for (const entry of ['src', 'views', 'skills', 'package.json']) {
    if (existsSync(path.join(catalogue, entry)))
      cpSync(path.join(catalogue, entry), file(entry), { recursive: true });
  }
  cpSync(path.join(catalogue, 'dist', 'views'), file('dist/views'), { recursive: true });
  // The views' tsconfig extends the repository's by a relative path: one folder deeper here.
  const viewsConfig = file('views/tsconfig.json');
  writeFileSync(viewsConfig, readFileSync(viewsConfig, 'utf8').replace('"../../../', '"../../../../'));
  // The copy's tool list is the catalogue's, whatever it holds, then the tools a test adds: a test
  // never edits the catalogue's own list, which is the participant's file.
  renameSync(file(TOOL_LIST), file(CATALOGUE_TOOL_LIST));
  writeFileSync(file(TOOL_LIST), scratchToolList([]));
  // The catalogue's own settings, for the copy's sources (its `include` would name the original's),
  // without the tests, whose `test/` folder is not copied.
  writeFileSync(
    file('tsconfig.json'),
    `${JSON.stringify({ extends: '../tsconfig.json', compilerOptions: { rootDir: '.' }, include: ['src'], exclude: ['src/**/*.test.ts'] }, null, 2)}\n`,
  );
  const added: Array<{ file: string; exportName: string }> = [];
  return {
    root,
    addTool: (toolFile, exportName, source) => {
      if (!/^[a-z][a-z0-9-]*$/.test(toolFile) || !/^[A-Za-z_$][\w$]*$/.test(exportName))
        throw new Error(
          `addTool: "${toolFile}" must be a file name in kebab-case, "${exportName}" an identifier`,
        );
      writeFileSync(file(`src/tools/${toolFile}.ts`), source);
      added.push({ file: toolFile, exportName });
      writeFileSync(file(TOOL_LIST), scratchToolList(added));
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
