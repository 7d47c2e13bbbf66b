/**
 * Runs the exercise checks. `--mode solution` (the package's `test` script) points every check at
 * the hidden solutions; otherwise `EXERCISE_FROM` decides, and the default is the participant's starter.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig(({ mode }) => ({
  test: {
    // The exercises' checks, and the tests of what runs them.
    include: ['*/check.test.ts', 'test-support/*.test.ts'],
    // Generous: CI runs every package's tests at once on two cores, and a check starts a server
    // or tsc. A hang still fails; a slow machine does not.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: mode === 'solution' ? { EXERCISE_FROM: 'solution' } : {},
  },
}));
