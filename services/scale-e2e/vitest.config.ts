import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Says once, for the whole run, which tests are skipped for want of a system program.
    globalSetup: ['./vitest.global-setup.ts'],
    // Each file starts a PostgreSQL cluster, three server processes and HAProxy, and kills some of them.
    testTimeout: 120_000,
    // Starting a topology takes seconds alone, and much longer while other packages' tests share the cores.
    hookTimeout: 120_000,
    // Two cores can run one topology at a time; in parallel they would time each other out.
    fileParallelism: false,
  },
});
