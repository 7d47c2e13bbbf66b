/**
 * Runs the exercise checks. `--mode solution` (the package's `test` script) points every check at
 * the hidden solutions; otherwise `EXERCISE_FROM` decides, and the default is the participant's starter.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig(({ mode }) => ({
  test: {
    include: ['*/check.test.ts'],
    testTimeout: 10_000,
    hookTimeout: 10_000,
    env: mode === 'solution' ? { EXERCISE_FROM: 'solution' } : {},
  },
}));
