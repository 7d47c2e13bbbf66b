#!/usr/bin/env node
/**
 * @module serve
 * `node dev/eval-fixture/dist/serve.js`: serves the 60-tool fixture catalogue over Streamable HTTP
 * at http://HOST:PORT/mcp (`PORT=3950 node dist/serve.js`; `--stdio` works too), with the host's
 * runner and settings, as any catalogue is served. `pnpm eval` points the agent at it.
 */
import { runCatalogue } from '@mcp-workshop/mcp-host/run';
import fixtureCatalogue from './catalogue.js';

// Its own name on every log line, so its lines never read as the workshop catalogue's.
runCatalogue(fixtureCatalogue, { service: 'eval-fixture' });
