import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Each end-to-end test starts real processes: the server, the demo model and the agent's CLI.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
