/**
 * @module mcp-apps/build-pages
 * Builds the test host page (host-page/), the fixture view (fixture-view/) and the hostile view (hostile-view/) with vite, each into
 * one HTML file (vite-plugin-singlefile), as MCP Apps views ship. Built per test run into a temp dir,
 * so nothing built is committed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

export interface BuiltPages {
  hostHtml: string;
  fixtureViewHtml: string;
  hostileViewHtml: string;
}

async function buildOne(sourceDir: string, outDir: string): Promise<string> {
  await build({
    root: fileURLToPath(new URL(sourceDir, import.meta.url)),
    configFile: false,
    logLevel: 'warn',
    plugins: [viteSingleFile()],
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  return readFile(join(outDir, 'index.html'), 'utf8');
}

/** Builds both pages under `outDir` and returns their HTML. */
export async function buildPages(outDir: string): Promise<BuiltPages> {
  const hostHtml = await buildOne('./host-page/', join(outDir, 'host'));
  const fixtureViewHtml = await buildOne('./fixture-view/', join(outDir, 'fixture-view'));
  const hostileViewHtml = await buildOne('./hostile-view/', join(outDir, 'hostile-view'));
  return { hostHtml, fixtureViewHtml, hostileViewHtml };
}
