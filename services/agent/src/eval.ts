#!/usr/bin/env node
/**
 * @module eval
 * `pnpm eval`: does the model pick the right tool? Asks every case in the catalogue's
 * `*.eval.yaml` files through the agent's own loop and judges the tools it called (`eval/`).
 * `pnpm eval --lint` checks the tool list as the model receives it, without a model.
 * An entry file: it reads argv and the environment, prints, and sets the exit status. Run by the
 * launcher (`dev/launcher`), it first waits for the services it started (`launcher-handoff.ts`).
 */
import { writeFileSync } from 'node:fs';
import { SEARCH_TOOLS_FUNCTION } from './discovery/search-function.js';
import { DEFAULT_TOOL_SEARCH } from './discovery/threshold.js';
import { type AgentEnv, loadAgentEnvWith } from './env.js';
import { type EvalOptions, parseEvalArgs, USAGE, UsageError } from './eval/args.js';
import { CaseFileError, type EvalCase, findCaseFiles, loadCases } from './eval/cases.js';
import { compareRuns, formatComparison, readSavedRun, SavedRunError } from './eval/compare.js';
import { type DiscoveryComparison, formatDiscoveryComparison } from './eval/discovery-report.js';
import { buildDocument, type EvalDocument } from './eval/document.js';
import { lintFailed, lintTools } from './eval/lint.js';
import { formatLint } from './eval/lint-format.js';
import { createModelRecorder, type ModelRecorder } from './eval/recorder.js';
import { formatReport } from './eval/report.js';
import { ModelUnavailableError, runCases } from './eval/run.js';
import { declineInput } from './input.js';
import { awaitLauncher } from './launcher-handoff.js';
import { countRequestTokens, encodingFor, loadTokenizer } from './llm/tokens.js';
import { createLogger } from './logger.js';
import type { Agent } from './loop.js';
import { type Runtime, startRuntime } from './runtime.js';

async function main(argv: readonly string[]): Promise<number> {
  const options = parseEvalArgs(argv);
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  // Read before anything connects: a typo in a case file is the participant's to fix first.
  const cases = options.lint ? [] : selectCases(options);
  const before = options.compare === undefined ? undefined : readSavedRun(options.compare);
  const env = loadAgentEnvWith(await awaitLauncher(process));
  if (options.lint) return withRuntime(env, (runtime) => lint(runtime, options));
  if (options.discovery === 'compare') {
    // One connection for both runs: only the agent's tool search differs between them.
    const [off, on] = await withRuntime(env, async (runtime, recorder) => [
      await evaluate(runtime, searching(runtime, 'off'), recorder, cases, options),
      await evaluate(runtime, searching(runtime, 'on'), recorder, cases, options),
    ]);
    const comparison: DiscoveryComparison = { kind: 'mcp-workshop-eval-discovery', version: 1, off, on };
    if (options.save) writeFileSync(options.save, `${JSON.stringify(comparison, null, 2)}\n`);
    await print(options.json ? JSON.stringify(comparison, null, 2) : formatDiscoveryComparison(comparison));
    return [off, on].every((document) => passes(document, options)) ? 0 : 1;
  }
  const { discovery } = options;
  const document = await withRuntime(env, (runtime, recorder) =>
    evaluate(runtime, discovery ? searching(runtime, discovery) : runtime.agent, recorder, cases, options),
  );
  if (options.save) writeFileSync(options.save, `${JSON.stringify(document, null, 2)}\n`);
  if (options.json) await print(JSON.stringify(document, null, 2));
  else {
    await print(formatReport(document));
    if (before) await print(`\n${formatComparison(compareRuns(before, document), options.compare ?? '')}`);
  }
  return passes(document, options) ? 0 : 1;
}

/**
 * Writes a line to stdout and waits until it is handed over: into a pipe, stdout is asynchronous,
 * and the process.exit that ends this entry would cut a long JSON document short (at 80 KB here).
 */
function print(text: string): Promise<void> {
  return new Promise((resolve, reject) =>
    process.stdout.write(`${text}\n`, (error) => (error ? reject(error) : resolve())),
  );
}

/** Every case passed, or at least --min of them; and, for the catalogue's own cases, every tool has some. */
function passes(document: EvalDocument, options: EvalOptions): boolean {
  const { passRate, total } = document.summary;
  const uncovered = options.coverage ? document.coverage.uncovered.length : 0;
  return total > 0 && passRate >= options.min && uncovered === 0;
}

/** Connects the agent as `env` says, with the model recorded, runs `work`, and always disconnects. */
async function withRuntime<T>(
  env: AgentEnv,
  work: (runtime: Runtime, recorder: ModelRecorder) => Promise<T>,
) {
  const recorder = createModelRecorder();
  const runtime = await startRuntime({
    env,
    logger: createLogger(env.LOG_LEVEL === 'info' ? 'warn' : env.LOG_LEVEL),
    // Nobody is at the keyboard: a tool that asks (delete_task's confirmation) is told "decline".
    onInput: declineInput,
    connectAttempts: 1,
    wrapModel: recorder.wrap,
  });
  try {
    return await work(runtime, recorder);
  } finally {
    await runtime.close();
  }
}

/** The runtime's agent with tool search forced off or on (`--discovery`), whatever AGENT_TOOL_SEARCH says. */
function searching(runtime: Runtime, mode: 'off' | 'on'): Agent {
  const toolSearch = runtime.settings.toolSearch ?? DEFAULT_TOOL_SEARCH;
  return runtime.agentWith({ toolSearch: { ...toolSearch, mode } });
}

async function evaluate(
  runtime: Runtime,
  agent: Agent,
  recorder: ModelRecorder,
  cases: readonly EvalCase[],
  options: EvalOptions,
): Promise<EvalDocument> {
  const tokenizer = await loadTokenizer(encodingFor(runtime.model.description.model));
  const startedAt = new Date();
  const started = performance.now();
  const progress = options.json || !process.stderr.isTTY ? undefined : process.stderr;
  const results = await runCases(cases, {
    agent,
    recorder,
    repeat: options.repeat,
    concurrency: options.concurrency,
    onCase: (_result, done, total) => progress?.write(`\r${done}/${total} cases`),
  });
  progress?.write('\r');
  return buildDocument({
    results,
    model: runtime.model.description,
    discovery: results.some((result) =>
      result.attempts.some((attempt) =>
        attempt.use.first?.functions.some((fn) => fn.name === SEARCH_TOOLS_FUNCTION),
      ),
    ),
    repeat: options.repeat,
    startedAt,
    durationMs: performance.now() - started,
    offeredTools: runtime.hub.tools().map((tool) => tool.name),
    selection: options.only !== undefined,
    countFirstRequest: ({ use }) =>
      use.first && countRequestTokens(use.first.messages, use.first.functions, tokenizer),
  });
}

function selectCases(options: EvalOptions) {
  const files = findCaseFiles(options.cases);
  if (files.length === 0) throw new CaseFileError(`no *.eval.yaml under ${options.cases.join(', ')}`);
  const all = loadCases(files);
  const needle = options.only?.toLowerCase();
  const chosen = needle
    ? all.filter((item) =>
        [item.id, item.file, item.question].some((text) => text.toLowerCase().includes(needle)),
      )
    : all;
  if (chosen.length === 0) throw new CaseFileError(`no case matches --only "${options.only}"`);
  return chosen;
}

/** Lints what the agent would offer the model; no model is asked. Only errors fail it. */
async function lint(runtime: Runtime, options: EvalOptions): Promise<number> {
  const report = await lintTools(runtime.hub.tools(), { model: runtime.model.description.model });
  await print(options.json ? JSON.stringify(report, null, 2) : formatLint(report));
  return lintFailed(report) ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known =
      error instanceof UsageError ||
      error instanceof CaseFileError ||
      error instanceof SavedRunError ||
      error instanceof ModelUnavailableError;
    console.error(known ? `pnpm eval: ${error.message}` : error);
    process.exit(known ? 2 : 1);
  },
);
