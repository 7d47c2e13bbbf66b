/**
 * @module run-node
 * Runs a Node script as a child process the way a person's shell would, and hands back its exit
 * code and everything it printed: for tests of entry files (`pnpm eval`, a CLI) that assert on the
 * output and the status together. Only the environment given is passed, plus PATH.
 */
import { spawn } from 'node:child_process';
import { testInfraEnv } from './env.js';

export interface NodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunNodeOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** A safety net, not a bar: the child is killed past it (and `code` is then null). */
  timeoutMs?: number;
  /** Written to stdin, which is then closed, as `printf … | node script` would (default: empty). */
  input?: string;
}

export function runNode(
  script: string,
  args: readonly string[],
  options: RunNodeOptions = {},
): Promise<NodeRun> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: testInfraEnv.path, ...options.env },
    ...(options.cwd && { cwd: options.cwd }),
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: options.timeoutMs ?? 60_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // A child that exits before reading all of it closes the pipe; that is its business, not an error here.
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
