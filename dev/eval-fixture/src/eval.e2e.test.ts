/**
 * `pnpm eval` end to end, as a person runs it: the launcher (which starts the offline demo model),
 * the agent's eval, and a catalogue served over HTTP in this process.
 * - A description made vague fails its cases, and the report says what the model chose instead.
 * - `pnpm eval:discovery` on the 60-tool fixture: search_tools shrinks the first request without
 *   losing a case.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineCatalogue } from '@mcp-workshop/mcp-host/kit';
import { startCatalogue } from '@mcp-workshop/mcp-host/run';
import { ok } from '@mcp-workshop/shared';
import { type NodeRun, runNode } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type FixtureDeps, READS } from './fixture-kit.js';

const LAUNCHER = join(
  dirname(createRequire(import.meta.url).resolve('@mcp-workshop/launcher/package.json')),
  'dist/cli.js',
);
const DISCOVERY = fileURLToPath(new URL('../dist/discovery.js', import.meta.url));
/** A safety net: the demo model answers in milliseconds; start-up is most of a run. */
const RUN_LIMIT_MS = 90_000;

/** No model of the person's: the launcher must start the offline demo model. */
const run = (script: string, args: string[], env: Record<string, string> = {}) =>
  runNode(script, args, { env: { LOG_LEVEL: 'silent', ...env }, timeoutMs: RUN_LIMIT_MS });

/** Says what a person asks for, in their words. */
const HONEST = 'When the sun rises and sets in a city, and how long the day lasts from sunrise to sunset.';
/** What a hurried author writes: true, and useless to a model choosing a tool. */
const VAGUE = 'Almanac data.';

/**
 * Two neighbours. The tool under test has a name that says little (`city_almanac`), so its
 * description must say what it does; its neighbour answers the clock questions.
 */
function almanacCatalogue(description: string) {
  const city = z.object({ city: z.string().describe('The city, e.g. "Oslo".') });
  return defineCatalogue<Record<never, never>, FixtureDeps>({
    name: 'almanac-probe',
    version: '0.0.1',
    services: () => ({ deps: {} }),
    tools: [
      defineTool({
        name: 'city_almanac',
        title: 'City almanac',
        description,
        input: city,
        output: z.object({ city: z.string() }),
        annotations: READS,
        run: async ({ city: name }) => ok({ city: name }),
      }),
      defineTool({
        name: 'get_world_time',
        title: 'World time',
        description: 'Get the current local time in a city, for "what time is it in ..." questions.',
        input: city,
        output: z.object({ city: z.string() }),
        annotations: READS,
        run: async ({ city: name }) => ok({ city: name }),
      }),
    ],
  });
}

const CASES = `tool: city_almanac
cases:
  - ask: When does the sun rise in Oslo?
    args:
      city: { mentions: Oslo }
  - ask: How long does the day last in Tromsø?
    args:
      city: { mentions: Tromsø }
  - ask: What time is it in Tokyo?
    expect: get_world_time
`;

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'eval-e2e-'));
  writeFileSync(join(folder, 'city-almanac.eval.yaml'), CASES);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function evalWith(description: string): Promise<NodeRun> {
  const served = await startCatalogue(almanacCatalogue(description));
  try {
    return await run(LAUNCHER, ['eval', '--cases', folder], { MCP_SERVER_URL: served.mcpUrl });
  } finally {
    await served.close();
  }
}

describe('pnpm eval on a description', { timeout: 2 * RUN_LIMIT_MS }, () => {
  it('passes the cases of an honest description, judged by the offline demo model', async () => {
    const outcome = await evalWith(HONEST);
    expect(outcome.stdout).toMatch(/^Judged by: offline demo model/m);
    expect(outcome.stdout.trimEnd().split('\n').at(-1)).toBe('3 passed, 0 failed');
    expect(outcome.code).toBe(0);
  });

  it('fails them once the description is vague, saying what the model did instead', async () => {
    const outcome = await evalWith(VAGUE);
    expect(outcome.stdout).toContain('expected city_almanac, chose no tool: city_almanac#1, city_almanac#2');
    expect(outcome.stdout).toMatch(/city_almanac#1\s+city_almanac\s+-\s+\d+\s+\S+\s+FAIL/);
    // The neighbour's case does not depend on the description under test.
    expect(outcome.stdout).toMatch(/city_almanac#3\s+get_world_time\s+get_world_time\s+ok/);
    expect(outcome.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 2 failed');
    expect(outcome.code).toBe(1);
  });
});

describe('pnpm eval:discovery on the 60-tool fixture', { timeout: RUN_LIMIT_MS }, () => {
  it('offers one function instead of 60, for a small share of the tokens, and loses no case', async () => {
    const outcome = await run(DISCOVERY, ['--json']);
    expect(outcome.code, outcome.stderr).toBe(0);
    const { off, on } = JSON.parse(outcome.stdout) as {
      off: { discovery: boolean; summary: { passed: number; total: number }; cases: CaseFigures[] };
      on: { discovery: boolean; summary: { passed: number; total: number }; cases: CaseFigures[] };
    };
    expect([off.discovery, on.discovery]).toEqual([false, true]);
    expect(off.summary.total).toBeGreaterThanOrEqual(120);
    expect(on.summary.passed).toBeGreaterThanOrEqual(off.summary.passed);
    expect(new Set(off.cases.map((record) => record.firstRequestFunctions))).toEqual(new Set([60]));
    expect(new Set(on.cases.map((record) => record.firstRequestFunctions))).toEqual(new Set([1]));
    expect(mean(on.cases) * 10).toBeLessThan(mean(off.cases));
  });
});

interface CaseFigures {
  firstRequestFunctions: number;
  firstRequestTokens: number;
}

const mean = (cases: readonly CaseFigures[]) =>
  cases.reduce((sum, record) => sum + record.firstRequestTokens, 0) / cases.length;
