/**
 * Runs the exercise checks. `--mode solution` (the package's `test` script) points every check at
 * the hidden solutions; otherwise `EXERCISE_FROM` decides, and the default is the participant's starter.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig(({ mode }) => ({
  test: {
    // The exercises' checks, and the tests of what runs them.
    include: ['*/check.test.ts', 'test-support/*.test.ts'],
    testTimeout: 10_000,
    hookTimeout: 10_000,
    env: mode === 'solution' ? { EXERCISE_FROM: 'solution' } : {},
  },
}));
