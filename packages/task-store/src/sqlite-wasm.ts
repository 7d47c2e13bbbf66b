/**
 * @module sqlite-wasm
 * Loads `node-sqlite3-wasm` when the task database is first opened, not when the server starts:
 * the package compiles 1.3 MB of WebAssembly as it loads, which (with the first statements)
 * would add 0.1–0.2 s to every start-up. It is CommonJS, so `require` loads it synchronously and
 * the store's API can stay synchronous like SQLite itself. Used by `sqlite-store.ts` and `sqlite-lock.ts`.
 */
import { createRequire } from 'node:module';

export type SqliteModule = typeof import('node-sqlite3-wasm');

/**
 * Resolved from this package's own folder, where it is a dependency. A server that bundles this
 * module (the catalogue's `dist/index.js`) runs it from its own folder, which need not list it.
 */
const require = createRequire(
  createRequire(import.meta.url).resolve('@mcp-workshop/task-store/package.json'),
);

/** The package's exports; the first call loads it, later ones get Node's cached module. */
export function loadSqlite(): SqliteModule {
  return require('node-sqlite3-wasm') as SqliteModule;
}
