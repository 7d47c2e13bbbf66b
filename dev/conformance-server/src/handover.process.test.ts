/**
 * `MCP_CONFORMANCE=true node services/mcp-server/dist/index.js` serves the catalogue with the
 * conformance fixtures, as `node dev/conformance-server/dist/index.js` does, on the same HOST, PORT
 * and DATA_DIR: the catalogue's entry hands its start over to this package, which it finds in the
 * checkout. Needs both packages' `dist/` (turbo builds them before `test`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, postModern, readMessages } from '@mcp-workshop/test-infra';
import { afterEach, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const CATALOGUE_ENTRY = join(
  dirname(require.resolve('@mcp-workshop/mcp-server/package.json')),
  'dist/index.js',
);
const START_WAIT_MS = 15_000;

let child: ChildProcess | undefined;
let dataDir: string | undefined;

afterEach(() => {
  child?.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('serves the catalogue with the fixtures when the catalogue starts with MCP_CONFORMANCE=true', async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'conformance-handover-'));
  const port = await freePort();
  child = spawn(process.execPath, [CATALOGUE_ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      MCP_CONFORMANCE: 'true',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_WAIT_MS;
  while (
    !(await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error('the server did not come up');
    await sleep(100);
  }
  const all: string[] = [];
  let cursor: string | undefined;
  do {
    const [message] = await readMessages(
      await postModern(`${base}/mcp`, 'tools/list', cursor ? { cursor } : {}),
    );
    const page = message?.result as { tools: Array<{ name: string }>; nextCursor?: string };
    all.push(...page.tools.map((tool) => tool.name));
    cursor = page.nextCursor;
  } while (cursor);
  // The catalogue's own tools, and the fixtures beside them.
  expect(all).toContain('get_weather');
  expect(all).toContain('test_simple_text');
  expect(all).toContain('slow_compute');
}, 30_000);
