/**
 * @module module-loader
 * Imports a catalogue's TypeScript sources afresh, in this process, with vite's module runner
 * (ADR 018): `reset()` forgets every evaluated source module, and vite's watcher has already
 * dropped the transform of each changed file, so the next `import` runs the new code and
 * re-transforms only what changed. The packages the catalogue depends on (its package.json) stay
 * ordinary Node imports, loaded once: the host, the SDK and `@mcp-workshop/shared` are the same
 * module instances before and after a reload, so their classes (`ToolError`, `McpServer`) and
 * their state (the open task database) carry across. Test: `module-loader.test.ts`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, createServerModuleRunner, type ViteDevServer } from 'vite';
import type { ModuleRunner } from 'vite/module-runner';

export interface CatalogueLoader {
  /** Imports `file` (relative to the catalogue's root, e.g. `src/catalogue.ts`) as the runner has it now. */
  import<T = Record<string, unknown>>(file: string): Promise<T>;
  /**
   * Forgets every evaluated source module, and the transforms of `changed` files (vite's watcher
   * drops those too, but may not have yet): the next `import` runs the code as it is on disk.
   */
  reset(changed?: readonly string[]): void;
  /** Calls `listener` with the absolute path of each file that is added, changed or removed under the root. */
  onFileChange(listener: (file: string) => void): void;
  close(): Promise<void>;
}

/** Where a catalogue lives: its package root (with its package.json and `src/`). */
export async function createCatalogueLoader(root: string): Promise<CatalogueLoader> {
  const server: ViteDevServer = await createServer({
    root,
    configFile: false,
    envFile: false,
    appType: 'custom',
    logLevel: 'silent',
    clearScreen: false,
    // No HTTP server and no browser HMR: only the module graph, the transforms and the watcher.
    server: { middlewareMode: true, hmr: false, ws: false, watch: { ignored: ['**/dist/**', '**/data/**'] } },
    optimizeDeps: { noDiscovery: true, include: [] },
    // Listed by name, the workspace's linked packages are external too (vite would inline them).
    environments: { ssr: { resolve: { external: packageDependencies(root) } } },
  });
  const runner: ModuleRunner = createServerModuleRunner(server.environments.ssr, { hmr: false });
  return {
    import: (file) => runner.import(`/${file}`),
    reset(changed = []) {
      const graph = server.environments.ssr.moduleGraph;
      for (const file of changed) {
        for (const module of graph.getModulesByFile(file) ?? []) graph.invalidateModule(module);
      }
      runner.clearCache();
    },
    onFileChange(listener) {
      for (const event of ['add', 'change', 'unlink'] as const) server.watcher.on(event, listener);
    },
    async close() {
      await runner.close();
      await server.close();
    },
  };
}

/** Every package the catalogue's package.json names: the runner leaves them to Node. */
function packageDependencies(root: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  return Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
}
