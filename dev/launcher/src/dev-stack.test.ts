/**
 * @module dev-stack.test
 * `readDevBlock` against a real `/health` on loopback: `pnpm dev`'s block is read, a shipped
 * server's health (no block), a stranger's odd one and an error are not; `describeDevStack` says
 * it is `pnpm dev`'s server and warns, with the file:line, of a failed save and of type errors.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevBlock, describeDevStack, readDevBlock } from './dev-stack.js';

let server: Server;
let base = '';
let answer: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(answer.status).end(JSON.stringify(answer.body)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const FAILED_SAVE = {
  reloading: true,
  lastReload: {
    outcome: 'failed',
    at: '2026-12-07T12:00:00.000Z',
    files: ['src/tools/shout.ts'],
    message: '[PARSE_ERROR] Unexpected token',
    place: { file: 'src/tools/shout.ts', line: 13, column: 16 },
  },
  typecheck: { state: 'passed', at: '2026-12-07T12:00:00.000Z' },
};

describe('readDevBlock', () => {
  it("reads pnpm dev's block", async () => {
    answer = { status: 200, body: { status: 'ok', dev: FAILED_SAVE } };
    expect(await readDevBlock(base)).toMatchObject({
      reloading: true,
      lastReload: { outcome: 'failed', place: { file: 'src/tools/shout.ts', line: 13 } },
    });
  });

  it("finds none on a shipped server's health, an odd block, or an error", async () => {
    answer = { status: 200, body: { status: 'ok', catalogueLoadedAt: '2026-12-07T12:00:00.000Z' } };
    expect(await readDevBlock(base)).toBeUndefined();
    answer = { status: 200, body: { dev: { reloading: 'yes' } } };
    expect(await readDevBlock(base)).toBeUndefined();
    answer = { status: 503, body: { dev: FAILED_SAVE } };
    expect(await readDevBlock(base)).toBeUndefined();
  });
});

describe('describeDevStack', () => {
  const url = 'http://127.0.0.1:3000/mcp';

  it('says nothing is built and warns of nothing after a good save with no type errors', () => {
    const told = describeDevStack(url, {
      reloading: true,
      lastReload: { outcome: 'reloaded' },
      typecheck: { state: 'passed' },
    });
    expect(told.note).toMatch(
      /^using pnpm dev's MCP server at http:\/\/127\.0\.0\.1:3000\/mcp: .*nothing was built\.$/,
    );
    expect(told.warnings).toEqual([]);
  });

  it('warns of a failed save with its file:line, and of type errors with the first one', () => {
    const block = {
      ...FAILED_SAVE,
      typecheck: {
        state: 'failed',
        errorCount: 2,
        errors: [{ file: 'src/tools/shout.ts', line: 9, column: 3, code: 'TS2322', message: 'Bad type.' }],
      },
    } as DevBlock;
    expect(describeDevStack(url, block).warnings).toEqual([
      "catalogue-dev: the catalogue's last save failed at src/tools/shout.ts:13:16: [PARSE_ERROR] Unexpected token. " +
        'The last good catalogue is answering; save again to retry.',
      'catalogue-dev: the type check found 2 errors, first at src/tools/shout.ts:9:3: TS2322 Bad type. ' +
        'The catalogue reloaded anyway; a call may fail on it.',
    ]);
  });
});
