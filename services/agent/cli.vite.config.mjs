/**
 * Bundles the agent's command-line entries, `src/cli.ts`, `src/demo.ts` and `src/eval.ts`, into
 * `dist/cli.js`, `dist/demo.js` and `dist/eval.js` (over `tsc`'s copies of them) plus shared chunks beside them (`dist/cli.*.js`).
 * Why: `pnpm ask` waits for the CLI's start, and a cold start that resolves, reads and compiles a
 * few hundred small modules (zod, openai, the MCP client, ajv, pino) takes about twice as long as
 * the same code in a few files. The HTTP entry and the library stay `tsc`'s, as do the tests' imports.
 * Vite is already here for the chat page; it bundles with rolldown, as the MCP server's build does.
 * OpenTelemetry loads only when telemetry is on, from the packages, so it stays out of the bundle.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));

export default defineConfig({
  // Not the chat page's folder: nothing here is served.
  publicDir: false,
  build: {
    ssr: true,
    target: 'node20',
    outDir: here('dist'),
    // `tsc` wrote the rest of dist/ just before; only the entries and their chunks are replaced.
    emptyOutDir: false,
    minify: false,
    sourcemap: true,
    rollupOptions: {
      input: { cli: here('src/cli.ts'), demo: here('src/demo.ts'), eval: here('src/eval.ts') },
      external: [/^@opentelemetry\//, /^@mcp-workshop\/telemetry(\/|$)/],
      output: {
        format: 'esm',
        entryFileNames: '[name].js',
        // No hash: each build writes the same names over the last build's chunks.
        chunkFileNames: 'cli.[name].js',
      },
    },
  },
  // Every dependency goes into the bundle, except those above.
  ssr: { target: 'node', noExternal: true },
});
