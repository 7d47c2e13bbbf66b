/**
 * Tests of `tool-choice-eval.ts`, the part of exercise 09's check that runs `pnpm eval`: its errors
 * must say what went wrong (a check that dies with "undefined" teaches nothing), and the demo model
 * it starts must answer. The happy path is exercise 09's check itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type EvalCaseRecord,
  pickedInstead,
  runToolChoiceEval,
  startDemoModelProcess,
} from './tool-choice-eval.js';

const record = (chosenTools: string[]): EvalCaseRecord => ({
  id: 'get_almanac#1',
  question: 'When does the sun set in Bergen?',
  expected: 'get_almanac',
  chosen: chosenTools[0] ?? null,
  chosenTools,
  pass: false,
  problems: [],
});

describe('tool-choice-eval', () => {
  it('says which tool the model picked instead, or that it picked none', () => {
    expect(pickedInstead(record(['get_time']))).toBe('the model picked get_time');
    expect(pickedInstead(record(['list_tasks', 'complete_task']))).toBe(
      'the model picked list_tasks > complete_task',
    );
    expect(pickedInstead(record([]))).toBe('the model called no tool');
  });

  it('passes on pnpm eval’s own message when there is no case to run', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-cases-'));
    try {
      // The cases are read before anything connects, so no server needs to answer at these URLs.
      await expect(
        runToolChoiceEval({
          mcpUrl: 'http://127.0.0.1:9/mcp',
          modelUrl: 'http://127.0.0.1:9/v1',
          cases: empty,
        }),
      ).rejects.toThrow(/exit 2\): pnpm eval: no \*\.eval\.yaml under/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('starts the offline demo model on a free port, and stops it', async () => {
    const model = await startDemoModelProcess();
    try {
      expect(model.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const health = await fetch(model.url.replace(/\/v1$/, '/health'));
      expect(health.ok, 'the demo model answers /health').toBe(true);
    } finally {
      await model.close();
    }
    await expect(fetch(model.url.replace(/\/v1$/, '/health'))).rejects.toThrow();
  });
});
