/**
 * `devStatusOf`, `healthUrlOf` and `readDevStatus`: a reloading dev server's `/health` block becomes
 * the page's status (a failed save with its file:line, the first type errors and their count);
 * anything else (no block, a block that does not say it reloads, a stdio server, a body far too
 * large to be a `/health`) gives no status at all.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devStatusOf, healthUrlOf, readDevStatus } from './dev-status.js';

describe('devStatusOf', () => {
  it('reads a failed save and type errors, the first three of them listed', () => {
    const errors = [1, 2, 3, 4].map((line) => ({
      file: 'src/tools/shout.ts',
      line,
      column: 2,
      code: 'TS2322',
      message: 'Bad.',
    }));
    expect(
      devStatusOf('workshop', {
        status: 'ok',
        dev: {
          reloading: true,
          lastReload: {
            outcome: 'failed',
            message: 'Unexpected token',
            place: { file: 'src/a.ts', line: 3 },
          },
          typecheck: { state: 'failed', errorCount: 4, errors },
        },
      }),
    ).toEqual({
      server: 'workshop',
      failedSave: { where: 'src/a.ts:3', message: 'Unexpected token' },
      typeErrors: {
        count: 4,
        first: [1, 2, 3].map((line) => ({ where: `src/tools/shout.ts:${line}:2`, message: 'TS2322: Bad.' })),
      },
    });
  });

  it('reads a good save with the type check under way as no problem', () => {
    expect(
      devStatusOf('workshop', {
        dev: { reloading: true, lastReload: { outcome: 'reloaded' }, typecheck: { state: 'checking' } },
      }),
    ).toEqual({ server: 'workshop', failedSave: null, typeErrors: { count: 0, first: [] } });
  });

  it('gives no status without a dev block of a reloading server', () => {
    expect(devStatusOf('s', { status: 'ok' })).toBeUndefined();
    expect(devStatusOf('s', { dev: { reloading: false } })).toBeUndefined();
    expect(devStatusOf('s', 'not json')).toBeUndefined();
  });
});

describe('healthUrlOf', () => {
  it("is /health at an HTTP server's origin, and nothing for a command line", () => {
    expect(healthUrlOf('http://127.0.0.1:3000/mcp')).toBe('http://127.0.0.1:3000/health');
    expect(healthUrlOf('node dist/stdio.js')).toBeUndefined();
    expect(healthUrlOf('file:///etc/passwd')).toBeUndefined();
  });
});

describe('readDevStatus', () => {
  let server: Server;
  let body = '';
  let base = '';
  beforeAll(async () => {
    server = createServer((_req, res) => res.end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("reads the server's /health, and refuses a body far larger than one", async () => {
    body = JSON.stringify({ dev: { reloading: true, lastReload: null, typecheck: { state: 'passed' } } });
    expect(await readDevStatus('s', `${base}/mcp`)).toEqual({
      server: 's',
      failedSave: null,
      typeErrors: { count: 0, first: [] },
    });
    body = JSON.stringify({ dev: { reloading: true }, padding: 'x'.repeat(100_000) });
    expect(await readDevStatus('s', `${base}/mcp`)).toBeUndefined();
    body = 'not json';
    expect(await readDevStatus('s', `${base}/mcp`)).toBeUndefined();
  });
});
