/**
 * @module test-support/tool-choice-eval
 * Runs the real `pnpm eval` against tools an exercise serves: starts the offline demo model (its
 * built entry, as the launcher does), runs the agent's built eval entry with `--json` against the
 * given MCP server, and returns its per-case records, checked. Used by exercise 09's check.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The workspace packages' built entries; `pnpm exercise` builds them first. */
const DEMO_MODEL_PACKAGE = join(REPO_ROOT, 'services', 'demo-model');
const EVAL_ENTRY = join(REPO_ROOT, 'services', 'agent', 'dist', 'eval.js');
/** The demo model binds in milliseconds; this is for two busy cores. */
const DEMO_MODEL_START_MS = 20_000;
/** A handful of cases against the demo model take a second or two; this bounds a hang. */
const EVAL_RUN_MS = 60_000;
/** stderr kept for an error message: the end says what went wrong. */
const MAX_STDERR_CHARS = 2_000;

export interface RunningModel {
  url: string;
  close(): Promise<void>;
}

/** The built entry of a workspace package: its `./main` export, the file its Docker image runs. */
function mainEntry(packageDir: string): string {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    exports?: Record<string, unknown>;
  };
  const entry = join(packageDir, String(manifest.exports?.['./main']));
  if (!existsSync(entry)) throw new Error(`${entry} is not built: run pnpm build first`);
  return entry;
}

/** Stops a child we started and waits for it to be gone. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The offline demo model on a free port of 127.0.0.1; resolves once it says where it listens. */
export function startDemoModelProcess(): Promise<RunningModel> {
  const child = spawn(process.execPath, [mainEntry(DEMO_MODEL_PACKAGE)], {
    env: {
      ...process.env,
      DEMO_MODEL_HOST: '127.0.0.1',
      DEMO_MODEL_PORT: '0',
      DEMO_MODEL_CHUNK_DELAY_MS: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => {
      void stop(child);
      reject(new Error(`the demo model did not start within ${DEMO_MODEL_START_MS} ms: ${stderr}`));
    }, DEMO_MODEL_START_MS);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      // Its pino line says where it listens: {"url":"http://127.0.0.1:N/v1",...}
      const url = /"url":"(http:\/\/[^"]+\/v1)"/.exec(stderr)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, close: () => stop(child) });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the demo model exited with code ${code} before it listened: ${stderr}`));
    });
  });
}

/** The part of `pnpm eval --json`'s document a check reads (services/agent/src/eval/document.ts). */
const EvalDocumentSchema = z.object({
  kind: z.literal('mcp-workshop-eval'),
  model: z.object({ kind: z.string(), label: z.string() }),
  cases: z.array(
    z.object({
      id: z.string(),
      question: z.string(),
      expected: z.string().nullable(),
      chosen: z.string().nullable(),
      chosenTools: z.array(z.string()),
      pass: z.boolean(),
      problems: z.array(z.string()),
    }),
  ),
  summary: z.object({ passed: z.number(), failed: z.number(), total: z.number() }),
});

export type EvalDocument = z.infer<typeof EvalDocumentSchema>;
export type EvalCaseRecord = EvalDocument['cases'][number];

export interface EvalRun {
  /** The JSON document, as `--json` prints it and `--save` writes it. */
  document: EvalDocument;
  /** The text report a participant reads: the case table, "Where the model went wrong", the tally. */
  report: string;
}

export interface EvalTarget {
  /** The MCP server whose tools are offered, e.g. http://127.0.0.1:N/mcp. */
  mcpUrl: string;
  /** An OpenAI-compatible base URL ending in /v1: here, the demo model. */
  modelUrl: string;
  /** A `*.eval.yaml` file or a folder of them. */
  cases: string;
}

/**
 * `node services/agent/dist/eval.js --cases <cases> --save <file>`, as `pnpm eval` runs it: the text
 * report on stdout and, in the file, the same run as the JSON document `--json` prints (both are
 * built from one document, so they cannot disagree). Its exit status is not the verdict: it is 1 when a case fails, and also when a served
 * tool has no case, which is so for every workshop tool here. Only 2 (a bad case file) and a
 * missing document are errors.
 */
export async function runToolChoiceEval(target: EvalTarget): Promise<EvalRun> {
  if (!existsSync(EVAL_ENTRY)) throw new Error(`${EVAL_ENTRY} is not built: run pnpm build first`);
  const dir = mkdtempSync(join(tmpdir(), 'tool-choice-eval-'));
  try {
    const saved = join(dir, 'run.json');
    const report = await runEval(target, saved);
    try {
      return { document: EvalDocumentSchema.parse(JSON.parse(readFileSync(saved, 'utf8'))), report };
    } catch (error) {
      throw new Error(`pnpm eval saved no eval document (${String(error)}); it printed: ${report}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the entry; resolves with its stdout once it exits 0 or 1. */
function runEval(target: EvalTarget, saveTo: string): Promise<string> {
  const child = spawn(process.execPath, [EVAL_ENTRY, '--cases', target.cases, '--save', saveTo], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      MCP_SERVER_URL: target.mcpUrl,
      DEMO_MODEL_URL: target.modelUrl,
      // Empty counts as unset: the demo model judges even when the shell has a key.
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
      OPENAI_MODEL: '',
      MCP_SERVERS_CONFIG: '',
      // Every tool offered at once, as the eval's cases assume: a shell or .env that turned on
      // search_tools (doc/agent.md) would otherwise change what the model sees.
      AGENT_TOOL_SEARCH: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-MAX_STDERR_CHARS);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(child);
      reject(new Error(`pnpm eval did not finish within ${EVAL_RUN_MS} ms: ${stderr}`));
    }, EVAL_RUN_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0 || code === 1) resolve(stdout);
      else reject(new Error(`pnpm eval failed (exit ${code}): ${stderr.trim()}`));
    });
  });
}

/** "the model picked get_time" / "the model called no tool", for a check's message. */
export function pickedInstead(record: EvalCaseRecord): string {
  return record.chosenTools.length === 0
    ? 'the model called no tool'
    : `the model picked ${record.chosenTools.join(' > ')}`;
}
