#!/usr/bin/env node
/**
 * @module discovery
 * `pnpm eval:discovery`: serves the 60-tool fixture catalogue on a free loopback port, in this
 * process, and runs `pnpm eval --discovery compare` on its cases through the launcher, which
 * starts the offline demo model unless a real one is configured. The comparison it prints:
 * accuracy, and the tokens of the first request, with every tool offered and with search_tools.
 * Further arguments go to the eval (`--json`, `--save f`, `--repeat 3`, `--only mail`).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCatalogue } from '@mcp-workshop/mcp-host/run';
import fixtureCatalogue from './catalogue.js';

const CASES = fileURLToPath(new URL('../cases', import.meta.url));
const LAUNCHER = join(
  dirname(createRequire(import.meta.url).resolve('@mcp-workshop/launcher/package.json')),
  'dist/cli.js',
);

async function main(): Promise<number> {
  const fixture = await startCatalogue(fixtureCatalogue);
  try {
    // A measurement, not a gate: the demo model's accuracy on 60 made-up tools is whatever it is.
    const args = ['eval', '--cases', CASES, '--discovery', 'compare', '--min', '0', ...process.argv.slice(2)];
    const child = spawn(process.execPath, [LAUNCHER, ...args], {
      env: { ...process.env, MCP_SERVER_URL: fixture.mcpUrl },
      stdio: 'inherit',
    });
    // Ctrl-C reaches the launcher too (same process group); this process waits for it to finish.
    process.on('SIGINT', () => undefined);
    return await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  } finally {
    await fixture.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
