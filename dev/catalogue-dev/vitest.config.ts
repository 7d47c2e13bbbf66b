import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The end-to-end test starts `catalogue-dev` on a scratch copy of the catalogue and saves into it.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
