/**
 * The built entry (`dist/index.js`, what `pnpm --filter @mcp-workshop/conformance-server serve` and
 * `pnpm conformance` run) as a process: its log lines carry its own name, so a failure beside the
 * catalogue's server is not blamed on the catalogue. Needs `dist/` (turbo builds it before `test`).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../dist/index.js', import.meta.url));

let occupier: Server | undefined;
let dataDir: string | undefined;

afterEach(() => {
  occupier?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('names itself, not the catalogue, when its port is taken, and exits 1', async () => {
  occupier = createServer();
  await new Promise<void>((resolve) => occupier?.listen(0, '127.0.0.1', resolve));
  const { port } = occupier.address() as { port: number };
  dataDir = mkdtempSync(join(tmpdir(), 'conformance-port-'));
  const child = spawn(process.execPath, [ENTRY], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];

  expect(code).toBe(1);
  const fatal = stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; service: string; msg: string })
    .find((line) => line.level === 60);
  expect(fatal).toMatchObject({ service: 'conformance-server' });
  expect(fatal?.msg).toContain(`Port ${port} on 127.0.0.1 is already in use`);
});
