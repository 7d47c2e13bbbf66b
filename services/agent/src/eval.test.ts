/**
 * `pnpm eval` as a person runs it, minus the launcher: the built entry (`dist/eval.js`) as a child
 * process against the built workshop server and a scripted OpenAI-compatible model speaking the
 * real wire format through the real `openai` client. The model here always picks the wrong tool,
 * so every failure the report can show is shown for real: expected versus chosen, the confusion
 * list, the exit status, the JSON document, a saved run compared with a later one.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type NodeRun, runNode } from '@mcp-workshop/test-infra';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CASES } from './eval/args.js';
import type { EvalDocument } from './eval/document.js';
import {
  type ChatRequestBody,
  type ScriptedOpenAI,
  type ScriptedOpenAIOptions,
  startScriptedOpenAI,
  toolMessages,
} from './test-support/scripted-openai.js';
import { startWorkshopProcess, type WorkshopProcess } from './test-support/workshop-process.js';

const EVAL = fileURLToPath(new URL('../dist/eval.js', import.meta.url));
/** A safety net: start-up plus a handful of scripted turns take a second or two. */
const RUN_LIMIT_MS = 60_000;

const CASES = `tool: get_weather
cases:
  - ask: What's the weather in Oslo?
    args:
      location: { mentions: Oslo }
  - ask: Is it raining in Bergen?
  - ask: Thanks!
    expect: none
`;

function runEval(args: string[], env: Record<string, string>, cwd?: string): Promise<NodeRun> {
  return runNode(EVAL, args, {
    env: { LOG_LEVEL: 'silent', ...env },
    ...(cwd && { cwd }),
    timeoutMs: RUN_LIMIT_MS,
  });
}

/** A model that answers every question with a call to `calculate`, then says it is done. */
const alwaysCalculate = (body: ChatRequestBody) =>
  toolMessages(body).length > 0
    ? { text: 'done' }
    : { toolCalls: [{ name: 'calculate', arguments: { expression: '1 + 1' } }] };

let workshop: WorkshopProcess;
let openai: ScriptedOpenAI | undefined;
let folder: string;
let env: Record<string, string>;

beforeAll(async () => {
  expect(existsSync(EVAL), `${EVAL} is missing: run pnpm --filter @mcp-workshop/agent build`).toBe(true);
  workshop = await startWorkshopProcess();
  folder = mkdtempSync(join(tmpdir(), 'eval-entry-'));
  writeFileSync(join(folder, 'get-weather.eval.yaml'), CASES);
});
afterEach(async () => {
  await openai?.close();
  openai = undefined;
});
afterAll(async () => {
  await workshop?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function withModel(fallback: NonNullable<ScriptedOpenAIOptions['fallback']>) {
  openai = await startScriptedOpenAI({ fallback });
  env = {
    MCP_SERVER_URL: workshop.mcpUrl,
    OPENAI_BASE_URL: openai.baseUrl,
    OPENAI_API_KEY: 'not-needed',
    OPENAI_MODEL: 'always-wrong',
    OPENAI_API: 'chat',
  };
}

describe('pnpm eval against a model that always picks the wrong tool', { timeout: 3 * RUN_LIMIT_MS }, () => {
  it('reports expected versus chosen for each case, names the model, and exits 1', async () => {
    await withModel(alwaysCalculate);
    const outcome = await runEval(['--cases', folder], env);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toMatch(
      /^Judged by: .*model always-wrong at http:\/\/127\.0\.0\.1:\d+\/v1, chat API/,
    );
    expect(outcome.stdout).toMatch(/get_weather#1\s+get_weather\s+calculate\s+\d+\s+\S+\s+FAIL/);
    expect(outcome.stdout).toContain('expected get_weather, chose calculate: get_weather#1, get_weather#2');
    expect(outcome.stdout).toContain('expected no tool, chose calculate: get_weather#3');
    // The workshop offers more tools than this folder has cases for: the coverage says so.
    expect(outcome.stdout).toMatch(/No cases for: list_cities, calculate/);
    expect(outcome.stdout.trimEnd().split('\n').at(-1)).toBe('0 passed, 3 failed');
  });

  it('prints one JSON document with a record per case, and --min lets a partial pass through', async () => {
    await withModel((body: ChatRequestBody) =>
      JSON.stringify(body.messages).includes('Thanks!')
        ? { text: 'You are welcome.' }
        : alwaysCalculate(body),
    );
    const saved = join(folder, 'before.json');
    const outcome = await runEval(['--cases', folder, '--json', '--save', saved, '--min', '30%'], env);
    expect(outcome.stderr).toBe('');
    const document = JSON.parse(outcome.stdout) as EvalDocument;
    expect(document.cases.map(({ id, expected, chosen, pass }) => ({ id, expected, chosen, pass }))).toEqual([
      { id: 'get_weather#1', expected: 'get_weather', chosen: 'calculate', pass: false },
      { id: 'get_weather#2', expected: 'get_weather', chosen: 'calculate', pass: false },
      { id: 'get_weather#3', expected: null, chosen: null, pass: true },
    ]);
    expect(document.cases[0]?.arguments).toEqual([{ expression: '1 + 1' }]);
    // This endpoint reports no usage, so only the count of the first request with the tokenizer is there.
    expect(document.cases[0]?.inputTokens).toBe(undefined);
    expect(document.cases[0]?.firstRequestTokens).toBeGreaterThan(500);
    expect(document.model).toMatchObject({ model: 'always-wrong', kind: 'custom' });
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toEqual(document);
    // 1 of 3 passed, above 30%. The workshop's other tools have no cases in this folder, but a
    // folder of one's own covers some tools on purpose: only the catalogue's own cases must cover all.
    expect(outcome.code).toBe(0);
    expect((await runEval(['--cases', folder, '--min', '34%'], env)).code).toBe(1);
  });

  it('compares with a saved run: the case the model now gets right is "fixed"', async () => {
    await withModel((body: ChatRequestBody) =>
      toolMessages(body).length > 0
        ? { text: 'done' }
        : { toolCalls: [{ name: 'get_weather', arguments: { location: 'Oslo' } }] },
    );
    const outcome = await runEval(['--cases', folder, '--compare', join(folder, 'before.json')], env);
    expect(outcome.stdout).toContain('fixed (failed then, pass now): get_weather#1, get_weather#2');
    expect(outcome.stdout).toContain('broken (passed then, fail now): get_weather#3');
  });

  it("fails the catalogue's own run while a tool has no cases, whatever --min says", async () => {
    await withModel((body: ChatRequestBody) =>
      toolMessages(body).length > 0
        ? { text: 'done' }
        : { toolCalls: [{ name: 'get_weather', arguments: { location: 'Oslo' } }] },
    );
    const repository = join(folder, 'repository');
    mkdirSync(join(repository, DEFAULT_CASES), { recursive: true });
    writeFileSync(
      join(repository, DEFAULT_CASES, 'get-weather.eval.yaml'),
      CASES.split('  - ask: Thanks!')[0] ?? '',
    );
    const outcome = await runEval(['--min', '0'], env, repository);
    expect(outcome.stdout).toMatch(/No cases for: list_cities, calculate, get_time/);
    expect(outcome.stdout.trimEnd().split('\n').at(-1)).toBe('2 passed, 0 failed');
    expect(outcome.code).toBe(1);
  });

  it('refuses a bad case file and a bad flag before asking anything, with exit 2', async () => {
    await withModel(alwaysCalculate);
    const file = join(folder, 'typo.yaml');
    writeFileSync(file, 'tool: get_weather\ncases:\n  - ask: q\n    expekt: none\n');
    const typo = await runEval(['--cases', file], env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^pnpm eval: .*typo\.yaml: cases\.0: Unrecognized key: "expekt"/);
    const flag = await runEval(['--repeat', 'many'], env);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--repeat takes a whole number from 1 to 20, not "many"');
    expect(openai?.requests).toHaveLength(0);
  });
});

describe('pnpm eval --lint', { timeout: RUN_LIMIT_MS }, () => {
  it('lints the tool list without asking the model, and passes on the workshop', async () => {
    await withModel(alwaysCalculate);
    const outcome = await runEval(['--lint'], env);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^Lint of 9 tools as the model receives them/);
    expect(outcome.stdout.trimEnd()).toMatch(/\n0 errors, 0 warnings, \d+ notes$/);
    expect(openai?.requests).toHaveLength(0);
  });
});
