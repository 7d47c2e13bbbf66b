/**
 * @module staleness.test
 * `staleCatalogueWarning` against a real `/health` on loopback and a scratch catalogue folder: a
 * source saved after the server's catalogue was loaded is named; one saved before, a test file, or
 * a server that does not say when it loaded, is not.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newestSource, staleCatalogueWarning } from './staleness.js';

let root: string;
let server: Server;
let base = '';
let health: Record<string, unknown> = {};

const touch = (relative: string, at: Date) => {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '// saved\n');
  utimesSync(file, at, at);
};

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'launcher-stale-'));
  server = createServer((_req, res) => res.end(JSON.stringify(health)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe('staleCatalogueWarning', () => {
  const loaded = new Date('2026-11-28T10:00:00Z');

  it('stays quiet when every source is older than the loaded catalogue', async () => {
    touch('src/tools/add-task.ts', new Date(loaded.getTime() - 60_000));
    health = { catalogueLoadedAt: loaded.toISOString() };
    expect(await staleCatalogueWarning(base, root)).toBeUndefined();
  });

  it('ignores a test saved later, and names a source saved later', async () => {
    touch('src/tools/add-task.test.ts', new Date(loaded.getTime() + 60_000));
    expect(await staleCatalogueWarning(base, root)).toBeUndefined();
    touch('src/tools/shout.ts', new Date(loaded.getTime() + 60_000));
    const warning = await staleCatalogueWarning(base, root);
    expect(warning).toMatch(
      /before src\/tools\/shout\.ts was saved: restart it \(Ctrl-C, then pnpm start\) or run pnpm dev/,
    );
    expect(newestSource(root)?.file).toBe(path.join(root, 'src/tools/shout.ts'));
  });

  it('names a skill saved later', async () => {
    touch('skills/add-a-tool/SKILL.md', new Date(loaded.getTime() + 120_000));
    expect(await staleCatalogueWarning(base, root)).toMatch(/before skills\/add-a-tool\/SKILL\.md was saved/);
  });

  it('judges nothing when the server does not say when it loaded, or does not answer', async () => {
    health = { status: 'ok' };
    expect(await staleCatalogueWarning(base, root)).toBeUndefined();
    expect(await staleCatalogueWarning('http://127.0.0.1:9', root)).toBeUndefined();
  });
});
