import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The suite speaks to a live server; its slowest cases (a cancelled report) set their own limits.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
