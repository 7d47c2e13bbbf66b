/**
 * @module eval/compare
 * Compares a saved run (`pnpm eval --save before.json`) with this one (`--compare before.json`):
 * which cases a description change fixed, which it broke, which still fail. Cases are matched by
 * id (`<tool>#<n>`), so edit a case's question freely but append new cases at the end.
 */
import { readFileSync } from 'node:fs';
import { isRecord } from '@mcp-workshop/shared';
import { EVAL_DOCUMENT_KIND, type EvalDocument } from './document.js';

/** A saved run bigger than this is not one this tool wrote. */
const MAX_SAVED_RUN_BYTES = 20 * 1024 * 1024;

export interface Comparison {
  fixed: string[];
  broken: string[];
  stillFailing: string[];
  added: string[];
  removed: string[];
  before: { passRate: number; startedAt: string; model: string };
  after: { passRate: number };
}

export class SavedRunError extends Error {}

/** Reads a run saved by `--save` (or printed by `--json`); anything else is refused with the reason. */
export function readSavedRun(path: string): EvalDocument {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SavedRunError(`${path}: cannot read it (${error instanceof Error ? error.message : error})`);
  }
  if (text.length > MAX_SAVED_RUN_BYTES) throw new SavedRunError(`${path}: too large to be a saved run`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new SavedRunError(`${path}: not JSON; save a run with pnpm -s eval --save ${path}`);
  }
  if (!isRecord(data) || data.kind !== EVAL_DOCUMENT_KIND || data.version !== 1 || !Array.isArray(data.cases))
    throw new SavedRunError(`${path}: not a run saved by pnpm eval (version 1)`);
  const cases = data.cases.filter(
    (record): record is EvalDocument['cases'][number] =>
      isRecord(record) && typeof record.id === 'string' && typeof record.pass === 'boolean',
  );
  return { ...(data as unknown as EvalDocument), cases };
}

export function compareRuns(before: EvalDocument, after: EvalDocument): Comparison {
  const then = new Map(before.cases.map((record) => [record.id, record.pass]));
  const now = new Map(after.cases.map((record) => [record.id, record.pass]));
  const comparison: Comparison = {
    fixed: [],
    broken: [],
    stillFailing: [],
    added: [],
    removed: [...then.keys()].filter((id) => !now.has(id)),
    before: {
      passRate: before.summary?.passRate ?? 0,
      startedAt: before.startedAt,
      model: before.model?.label ?? 'unknown model',
    },
    after: { passRate: after.summary.passRate },
  };
  for (const [id, pass] of now) {
    const old = then.get(id);
    if (old === undefined) comparison.added.push(id);
    else if (!old && pass) comparison.fixed.push(id);
    else if (old && !pass) comparison.broken.push(id);
    else if (!old && !pass) comparison.stillFailing.push(id);
  }
  return comparison;
}

export function formatComparison(comparison: Comparison, path: string): string {
  const percent = (rate: number) => `${Math.round(rate * 100)}%`;
  const list = (ids: string[]) => (ids.length === 0 ? 'none' : ids.join(', '));
  return [
    `Compared with ${path} (${comparison.before.startedAt}, ${comparison.before.model}):`,
    `  fixed (failed then, pass now): ${list(comparison.fixed)}`,
    `  broken (passed then, fail now): ${list(comparison.broken)}`,
    `  still failing: ${list(comparison.stillFailing)}`,
    ...(comparison.added.length > 0 ? [`  new cases: ${list(comparison.added)}`] : []),
    ...(comparison.removed.length > 0 ? [`  cases gone: ${list(comparison.removed)}`] : []),
    `  pass rate: ${percent(comparison.before.passRate)} then, ${percent(comparison.after.passRate)} now`,
  ].join('\n');
}
