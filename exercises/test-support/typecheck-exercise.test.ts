/**
 * The runner's typecheck (scripts/lib/typecheck-exercise.mjs): vitest strips types, so without it
 * `pnpm exercise 01` said "Well done!" to code that `pnpm typecheck` refuses.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typecheckFiles } from '../../scripts/lib/typecheck-exercise.mjs';

const EXERCISES = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSCONFIG = join(EXERCISES, 'tsconfig.json');
const BROKEN = join(EXERCISES, 'test-support', 'fixtures', 'does-not-compile.ts');
const SOLUTION = join(EXERCISES, '.solutions', '01-random-fact', 'get-random-fact.ts');
/**
 * Building a program loads zod's and the SDK's types: seconds alone, but CI compiles it while every
 * other package's tests run on the same two cores, so the bound only catches a hang.
 */
const COMPILE_MS = 90_000;

describe('typecheckFiles', () => {
  it(
    "reports tsc's TS2322 for an indexed array read under noUncheckedIndexedAccess, and nothing for a file that compiles",
    () => {
      const errors = typecheckFiles([BROKEN, SOLUTION], { tsconfig: TSCONFIG, cwd: EXERCISES });
      expect(errors).toEqual([
        {
          file: BROKEN,
          text: expect.stringMatching(
            /^test-support\/fixtures\/does-not-compile\.ts:\d+:\d+ - error TS2322: Type 'string \| undefined' is not assignable to type 'string'\./,
          ),
        },
      ]);
    },
    COMPILE_MS,
  );
});
