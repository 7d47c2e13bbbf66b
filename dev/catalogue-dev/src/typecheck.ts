/**
 * @module typecheck
 * `pnpm dev`'s background type check: `tsc --watch --noEmit` on the catalogue's own tsconfig.json,
 * as a child process beside the dev server. A save reloads at once whatever its types say (the
 * reload only needs the file to parse); tsc then checks it incrementally, and each finished check
 * is handed on as passed or failed with its errors. `readTscWatch` is the pure half, reading tsc's
 * `--pretty false` output line by line. Test: `typecheck.test.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** One type error as tsc prints it; `file` as tsc names it, relative to the catalogue's root. */
export interface TypeErrorFound {
  file: string;
  line: number;
  column: number;
  code: string;
  message: string;
}

export type TypecheckResult =
  | { state: 'off'; reason: string }
  | { state: 'checking' }
  | { state: 'passed' }
  | { state: 'failed'; errors: TypeErrorFound[] };

/** `src/tools/echo.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.` */
const ERROR_LINE = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
/** `12:14:07 PM - Starting compilation in watch mode...`, `... - File change detected. ...` */
const CHECK_STARTS = / - (Starting compilation|File change detected)/;
/** `12:14:14 PM - Found 1 error. Watching for file changes.` */
const CHECK_ENDS = / - Found (\d+) errors?\b/;

/**
 * Reads `tsc --watch --pretty false` output, one line at a time: `checking` when a check starts,
 * then `passed` or `failed` (with the errors printed since) when tsc says how many it found.
 */
export function readTscWatch(onResult: (result: TypecheckResult) => void): (line: string) => void {
  let errors: TypeErrorFound[] = [];
  let last: TypeErrorFound | undefined;
  /** tsc's headline of the error being read, before any follow-up line. */
  let headline = '';
  return (line) => {
    if (CHECK_STARTS.test(line)) {
      errors = [];
      last = undefined;
      onResult({ state: 'checking' });
      return;
    }
    const end = CHECK_ENDS.exec(line);
    if (end) {
      onResult(
        Number(end[1]) === 0 && errors.length === 0 ? { state: 'passed' } : { state: 'failed', errors },
      );
      errors = [];
      last = undefined;
      return;
    }
    const error = ERROR_LINE.exec(line);
    if (error) {
      const [, file = '', lineNo, column, code = '', message = ''] = error;
      headline = message;
      last = { file, line: Number(lineNo), column: Number(column), code, message };
      errors.push(last);
    } else if (last && /^\s+\S/.test(line)) {
      // tsc's follow-up lines of one error elaborate it step by step; the last step is the one
      // that names the mismatch ("Type 'number' is not assignable to type 'string'.").
      last.message = `${headline} … ${line.trim()}`;
    }
  };
}

export interface Typecheck {
  close(): Promise<void>;
}

/**
 * Starts tsc watching the catalogue at `root` (its `tsconfig.json`, with the `typescript` its
 * package resolves). Without either, reports `off` with the reason and starts nothing.
 */
export function startTypecheck(root: string, onResult: (result: TypecheckResult) => void): Typecheck {
  const tsconfig = path.join(root, 'tsconfig.json');
  let tsc: string;
  try {
    tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    onResult({ state: 'off', reason: 'the catalogue has no typescript package to check its types with' });
    return { close: async () => undefined };
  }
  if (!existsSync(tsconfig)) {
    onResult({ state: 'off', reason: `no ${path.basename(tsconfig)} in ${root}` });
    return { close: async () => undefined };
  }
  const child: ChildProcess = spawn(
    process.execPath,
    [tsc, '--watch', '--noEmit', '--pretty', 'false', '--preserveWatchOutput', '-p', tsconfig],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const read = readTscWatch(onResult);
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) read(line);
  });
  child.stderr?.resume();
  child.once('error', (error) => onResult({ state: 'off', reason: `tsc did not start: ${error.message}` }));
  return {
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
