/**
 * Builds the MCP Apps views (views/*.html and their TypeScript) into dist/views/, one
 * self-contained HTML file each: vite-plugin-singlefile inlines the script and the styles, because a
 * host loads a view from a `ui://` resource's text, where no second file can be fetched. Runs after
 * rolldown in `pnpm build`; `src/resources/views.ts` serves the files. Usage: node views/build.mjs [outDir]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** One entry per view; the name is the file `src/resources/views.ts` reads. */
export const VIEWS = ['weather-forecast.html', 'task-board.html'];

/** Builds every view into `outDir`, after removing what a previous build left there. */
export async function buildViews(outDir = path.join(HERE, '..', 'dist', 'views')) {
  fs.rmSync(outDir, { recursive: true, force: true });
  // singlefile inlines one entry's chunks, so each view is its own build.
  for (const view of VIEWS) {
    await build({
      root: HERE,
      configFile: false,
      // No .env file and no env prefix reach a view: it is sent to every client that reads it.
      envDir: false,
      envPrefix: 'MCP_VIEW_NEVER_',
      logLevel: 'warn',
      plugins: [viteSingleFile()],
      build: {
        outDir,
        emptyOutDir: false,
        rollupOptions: { input: path.join(HERE, view) },
      },
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildViews(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
}
