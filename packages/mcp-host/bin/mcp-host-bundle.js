#!/usr/bin/env node
// `mcp-host-bundle`, run from a catalogue package's root in its `build` script: see src/run/bundle.ts.
// The bundler is loaded as the catalogue resolves this package, not beside this file: a copy of the
// repository whose node_modules are links (a scratch copy) then still finds the built host.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.cwd();
const entry = createRequire(path.join(root, 'package.json')).resolve('@mcp-workshop/mcp-host/bundle');
const { bundleCatalogue } = await import(pathToFileURL(entry).href);
await bundleCatalogue(root).catch((error) => {
  console.error(error);
  process.exit(1);
});
