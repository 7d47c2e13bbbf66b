import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Says once, for the whole run, which tests are skipped for want of a system program.
    globalSetup: ['./vitest.global-setup.ts'],
    // Each end-to-end test starts real processes: the server, the demo model and the agent's CLI.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
