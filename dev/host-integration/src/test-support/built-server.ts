/**
 * @module test-support/built-server
 * The catalogue as `pnpm --filter @mcp-workshop/mcp-server build` leaves it, found through its
 * package: its `dist/` folder and the entry `node dist/index.js` runs. The process tests start it;
 * turbo builds it before they run.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The catalogue's package folder (services/mcp-server in this repository). */
export const WORKSHOP_DIR = dirname(require.resolve('@mcp-workshop/mcp-server/package.json'));
/** The built catalogue: the bundled entry, its chunks and their source maps. */
export const WORKSHOP_DIST = join(WORKSHOP_DIR, 'dist');
/** What `node dist/index.js` (the catalogue's `start`) runs. */
export const WORKSHOP_ENTRY = join(WORKSHOP_DIST, 'index.js');
