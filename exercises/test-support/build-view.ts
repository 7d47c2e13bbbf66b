/**
 * @module test-support/build-view
 * Builds an MCP Apps view (an HTML file and the TypeScript it loads) into one self-contained HTML
 * file with vite and vite-plugin-singlefile, as services/mcp-server/views/build.mjs builds the
 * catalogue's views: a host loads a view from a `ui://` resource's text, where no second file can
 * be fetched. Built into a temp dir per check run, so nothing built lands in the repository.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

/** Builds `htmlFile` of folder `root` and returns the one HTML file it becomes. */
export async function buildView(root: string, htmlFile: string): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'exercise-view-'));
  try {
    await build({
      root,
      configFile: false,
      // No .env file and no env prefix reach a view: its text goes to every client that reads it.
      envDir: false,
      envPrefix: 'EXERCISE_VIEW_NEVER_',
      logLevel: 'silent',
      plugins: [viteSingleFile()],
      build: {
        outDir,
        emptyOutDir: true,
        target: 'es2022',
        rollupOptions: { input: join(root, htmlFile) },
      },
    });
    return await readFile(join(outDir, basename(htmlFile)), 'utf8');
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
