#!/usr/bin/env node
/**
 * @module index
 * `node dev/conformance-server/dist/index.js`: the workshop catalogue with the conformance suite's
 * fixtures (`catalogue.ts`), served by the host's runner exactly as the workshop's own
 * `node dist/index.js` serves it, on the same settings (HOST, PORT, DATA_DIR, the limits, sign-in).
 * `pnpm conformance` and the protocol suite's `--url` runs start it.
 */
import { runCatalogue } from '@mcp-workshop/mcp-host/run';
import conformanceCatalogue from './catalogue.js';

// Its own name on every line: beside the catalogue's server, a failure here must not read as the catalogue's.
runCatalogue(conformanceCatalogue, { service: 'conformance-server' });
