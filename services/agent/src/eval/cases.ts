/**
 * @module eval/cases
 * Reads the tool-choice cases of `pnpm eval`: YAML files named `*.eval.yaml`, one per tool, kept
 * beside the tool they test. A file names its tool once; each case is a question, then what the
 * model should do: that tool (the default), another tool, "none", or several tools in order, with
 * optional expectations on the arguments (see `matchers.ts`). Everything is checked here, so a
 * typo in a case file is reported with its file and case number, never judged as a model's mistake.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { type ArgumentExpectations, checkExpectations } from './matchers.js';

/** The suffix that marks a case file, so a tool's folder can hold them beside its code. */
export const CASE_FILE_SUFFIX = '.eval.yaml';
/** A case file larger than this is a mistake (or hostile), not a list of questions. */
export const MAX_CASE_FILE_BYTES = 256 * 1024;
/** Questions a person types; a longer one is not a tool-choice case. */
export const MAX_QUESTION_CHARS = 4_000;
/** A folder walk stops here: the cases live a few levels under the catalogue, never deeper. */
const MAX_DEPTH = 6;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.turbo', '.git']);

/** One expected step: a tool (the MCP name), and what its arguments must satisfy. */
export interface ExpectedStep {
  tool: string;
  args: ArgumentExpectations;
}

export interface EvalCase {
  /** Stable across runs (saved runs are compared by it): `<file's tool or file name>#<n>`, 1-based. */
  id: string;
  /** Where it was written, relative to the working folder, for the report. */
  file: string;
  question: string;
  /** The tools the model should call, in order; empty: it should answer without any tool. */
  steps: ExpectedStep[];
}

const toolName = z.string().trim().min(1).max(128);
const argsObject = z.record(z.string(), z.unknown());
const caseSchema = z.strictObject({
  ask: z.string().trim().min(1, 'ask: write the question').max(MAX_QUESTION_CHARS),
  expect: z.union([z.literal('none'), toolName, z.array(toolName).min(1).max(8)]).optional(),
  args: z.union([argsObject, z.array(argsObject).max(8)]).optional(),
});
const fileSchema = z.strictObject({
  tool: toolName.optional(),
  cases: z.array(caseSchema).min(1, 'cases: write at least one case').max(500),
});

/** A case file that cannot be used: the message names the file and the case. */
export class CaseFileError extends Error {}

/** Every `*.eval.yaml` under each path (a file or a folder), sorted, without duplicates. */
export function findCaseFiles(paths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    const absolute = resolve(path);
    let stats: ReturnType<typeof statSync>;
    try {
      stats = statSync(absolute);
    } catch {
      throw new CaseFileError(`${path}: no such file or folder`);
    }
    if (stats.isFile()) found.add(absolute);
    else walk(absolute, 0, found);
  }
  return [...found].sort();
}

function walk(folder: string, depth: number, found: Set<string>): void {
  if (depth > MAX_DEPTH) return;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith('.'))
      walk(join(folder, entry.name), depth + 1, found);
    else if (entry.isFile() && entry.name.endsWith(CASE_FILE_SUFFIX)) found.add(join(folder, entry.name));
  }
}

/** Reads and checks every case in `files`; the first bad file throws a `CaseFileError`. */
export function loadCases(files: readonly string[], cwd = process.cwd()): EvalCase[] {
  const cases: EvalCase[] = [];
  const ids = new Set<string>();
  for (const file of files) {
    const shown = relative(cwd, file) || file;
    const size = statSync(file).size;
    if (size > MAX_CASE_FILE_BYTES)
      throw new CaseFileError(`${shown}: ${size} bytes; a case file may have at most ${MAX_CASE_FILE_BYTES}`);
    for (const item of parseCaseFile(readFileSync(file, 'utf8'), shown)) {
      if (ids.has(item.id))
        throw new CaseFileError(`${shown}: case id ${item.id} is used by another file too`);
      ids.add(item.id);
      cases.push(item);
    }
  }
  return cases;
}

/** One file's text to cases; `shown` names it in errors and in each case. Pure, for the tests. */
export function parseCaseFile(text: string, shown: string): EvalCase[] {
  let data: unknown;
  try {
    // One document, no custom tags, and a cap on alias expansion ("billion laughs").
    data = parseYaml(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (error) {
    throw new CaseFileError(`${shown}: not valid YAML: ${error instanceof Error ? error.message : error}`);
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`,
    );
    throw new CaseFileError(`${shown}: ${problems.join('; ')}`);
  }
  const { tool, cases } = parsed.data;
  const prefix = tool ?? shown.split(/[\\/]/).pop()?.replace(CASE_FILE_SUFFIX, '') ?? shown;
  return cases.map((item, index) => {
    const where = `${shown}, case ${index + 1} ("${item.ask.slice(0, 40)}")`;
    const tools = expectedTools(item.expect, tool, where);
    const args = Array.isArray(item.args) ? item.args : item.args ? [item.args] : [];
    if (args.length > tools.length)
      throw new CaseFileError(
        `${where}: args has ${args.length} entries for ${tools.length} expected tool(s)`,
      );
    const steps = tools.map((name, step) => {
      const expectations = args[step] ?? {};
      const problem = checkExpectations(expectations);
      if (problem) throw new CaseFileError(`${where}: args: ${problem}`);
      return { tool: name, args: expectations };
    });
    return { id: `${prefix}#${index + 1}`, file: shown, question: item.ask, steps };
  });
}

function expectedTools(expect: string | string[] | undefined, fileTool: string | undefined, where: string) {
  if (expect === 'none') return [];
  if (Array.isArray(expect)) return expect;
  if (expect !== undefined) return [expect];
  if (fileTool === undefined) throw new CaseFileError(`${where}: say expect:, or name the file's tool:`);
  return [fileTool];
}
