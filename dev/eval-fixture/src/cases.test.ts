/**
 * The fixture's cases (`cases/**\/*.eval.yaml`), checked against its tools before any model sees
 * them: every file is in the eval's case format, every tool is expected by at least 2 cases, every
 * tool a case expects exists, and some cases expect no tool at all. A wrong name here would count
 * as a model's mistake in the discovery comparison.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { fixtureTools } from './tools/index.js';

const CASES_DIR = fileURLToPath(new URL('../cases', import.meta.url));
/** What the issue asks of the fixture: enough cases per tool that one lucky pick is not a pass. */
const MIN_CASES_PER_TOOL = 2;
const MATCHERS = ['mentions', 'matches', 'oneOf', 'absent', 'present', 'equals'];

const toolName = z.string().min(1);
const argsObject = z.record(z.string(), z.unknown());
/** The eval's case format (shared brief of issue 40), strict so a misspelt key is caught here. */
const caseFile = z.strictObject({
  tool: toolName.optional(),
  cases: z
    .array(
      z.strictObject({
        ask: z.string().trim().min(1),
        expect: z.union([z.literal('none'), toolName, z.array(toolName).min(1)]).optional(),
        args: z.union([argsObject, z.array(argsObject)]).optional(),
      }),
    )
    .min(1),
});

interface LoadedCase {
  where: string;
  ask: string;
  expected: string[];
  args: Record<string, unknown>[];
}

function caseFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return caseFiles(path);
    return entry.name.endsWith('.eval.yaml') ? [path] : [];
  });
}

function loadCases(): LoadedCase[] {
  return caseFiles(CASES_DIR).flatMap((file) => {
    const where = relative(CASES_DIR, file);
    const parsed = caseFile.safeParse(parseYaml(readFileSync(file, 'utf8')));
    if (!parsed.success) throw new Error(`${where}: ${parsed.error.message}`);
    return parsed.data.cases.map((item, index) => {
      const expect = item.expect ?? parsed.data.tool;
      if (expect === undefined) throw new Error(`${where}, case ${index + 1}: no expect: and no tool:`);
      const expected = expect === 'none' ? [] : Array.isArray(expect) ? expect : [expect];
      const args = item.args === undefined ? [] : Array.isArray(item.args) ? item.args : [item.args];
      return { where: `${where}, case ${index + 1}`, ask: item.ask, expected, args };
    });
  });
}

describe('the eval fixture cases', () => {
  const cases = loadCases();
  const names = new Set(fixtureTools.map((tool) => tool.name));

  it('expect only tools the catalogue has', () => {
    const unknown = cases.flatMap(({ where, expected }) =>
      expected.filter((name) => !names.has(name)).map((name) => `${where}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it(`expect every tool in at least ${MIN_CASES_PER_TOOL} cases`, () => {
    const counts = new Map([...names].map((name) => [name, 0]));
    for (const { expected } of cases) {
      for (const name of new Set(expected))
        if (counts.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const thin = [...counts].filter(([, count]) => count < MIN_CASES_PER_TOOL).map(([name]) => name);
    expect(thin).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(MIN_CASES_PER_TOOL * names.size);
  });

  it('include questions that no tool should answer', () => {
    expect(cases.filter(({ expected }) => expected.length === 0).length).toBeGreaterThanOrEqual(5);
  });

  it('give at most one argument expectation per expected tool, each a value or one known matcher', () => {
    const problems = cases.flatMap(({ where, expected, args }) => {
      const found =
        args.length > expected.length ? [`${where}: ${args.length} args for ${expected.length} tools`] : [];
      for (const step of args) {
        for (const [name, value] of Object.entries(step)) {
          const keys =
            value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
          if (keys.length > 0 && !(keys.length === 1 && MATCHERS.includes(keys[0] ?? '')))
            found.push(`${where}: ${name} is an object but not one of ${MATCHERS.join(', ')}`);
        }
      }
      return found;
    });
    expect(problems).toEqual([]);
  });

  it('ask each question once', () => {
    const asks = cases.map(({ ask }) => ask.toLowerCase());
    expect(asks.filter((ask, index) => asks.indexOf(ask) !== index)).toEqual([]);
  });
});
