/**
 * The background type check: `readTscWatch` turns tsc's watch output into checking / passed /
 * failed with each error's file, line, code, headline and last elaboration; `startTypecheck` runs the real tsc
 * on a small project and reports a type error, then its fix, as the files are saved.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readTscWatch, startTypecheck, type Typecheck, type TypecheckResult } from './typecheck.js';

describe('readTscWatch', () => {
  it('reports each check: checking, then failed with its errors, then passed', () => {
    const results: TypecheckResult[] = [];
    const read = readTscWatch((result) => results.push(result));
    for (const line of [
      '',
      '12:14:07 PM - Starting compilation in watch mode...',
      '',
      "src/tools/shout.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/a.ts(1,1): error TS2741: Property 'x' is missing in type '{}' but required in type 'A'.",
      "  The types of 'x' are incompatible.",
      "    Type 'number' is not assignable to type 'string'.",
      '12:14:14 PM - Found 2 errors. Watching for file changes.',
      '12:14:15 PM - File change detected. Starting incremental compilation...',
      '12:14:16 PM - Found 0 errors. Watching for file changes.',
    ])
      read(line);
    expect(results).toEqual([
      { state: 'checking' },
      {
        state: 'failed',
        errors: [
          {
            file: 'src/tools/shout.ts',
            line: 12,
            column: 5,
            code: 'TS2322',
            message: "Type 'string' is not assignable to type 'number'.",
          },
          {
            file: 'src/a.ts',
            line: 1,
            column: 1,
            code: 'TS2741',
            message:
              "Property 'x' is missing in type '{}' but required in type 'A'. … Type 'number' is not assignable to type 'string'.",
          },
        ],
      },
      { state: 'checking' },
      { state: 'passed' },
    ]);
  });
});

describe('startTypecheck', () => {
  let dir = '';
  let check: Typecheck | undefined;
  afterEach(async () => {
    await check?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says off, and starts nothing, without a tsconfig.json', () => {
    dir = mkdtempSync(path.join(fileURLToPath(new URL('.', import.meta.url)), '.typecheck-'));
    writeFileSync(path.join(dir, 'package.json'), '{"name":"x"}');
    const results: TypecheckResult[] = [];
    check = startTypecheck(dir, (result) => results.push(result));
    expect(results).toEqual([{ state: 'off', reason: expect.stringContaining('no tsconfig.json') }]);
  });

  it('reports a type error with its place, then passes once the file is fixed', async () => {
    // Inside this package, so `typescript` resolves as it does for the catalogue.
    dir = mkdtempSync(path.join(fileURLToPath(new URL('.', import.meta.url)), '.typecheck-'));
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'package.json'), '{"name":"x"}');
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['src'] }),
    );
    writeFileSync(path.join(dir, 'src/a.ts'), 'export const a: number = "text";\n');
    const verdicts: TypecheckResult[] = [];
    let heard: () => void = () => undefined;
    check = startTypecheck(dir, (result) => {
      if (result.state === 'checking') return;
      verdicts.push(result);
      heard();
    });
    const next = () => new Promise<void>((resolve) => (heard = resolve));

    await next();
    expect(verdicts[0]).toEqual({
      state: 'failed',
      errors: [
        {
          file: 'src/a.ts',
          line: 1,
          column: 14,
          code: 'TS2322',
          message: "Type 'string' is not assignable to type 'number'.",
        },
      ],
    });
    const fixed = next();
    writeFileSync(path.join(dir, 'src/a.ts'), 'export const a: number = 1;\n');
    await fixed;
    expect(verdicts[1]).toEqual({ state: 'passed' });
  });
});
