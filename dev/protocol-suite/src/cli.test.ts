/**
 * @module cli.test
 * The built CLI as a process: refusals (exit 2), unreachable and non-MCP URLs (exit 1), and one real
 * revision against a workshop server this test starts (exit 0). One revision only, to keep `pnpm test` short.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseCounts } from './cases/index.js';
import { ProtocolClient } from './client.js';
import { openTarget, type SuiteTarget } from './target.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** The "protocol suite coverage" describe block runs with every revision subset. */
const COVERAGE_TESTS = 3;
/**
 * A refusal never starts vitest, so it ends long before this; the bound only turns a hang into a
 * failure (the child is killed and has no exit code). Generous, because CI runs many suites at once.
 */
const REFUSAL_MS = 15_000;
/** One revision against a local server: a few seconds of cases plus vitest's start-up. */
const RUN_MS = 120_000;

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI with a clean environment (no vitest or suite variables inherited), killed after `limitMs`. */
function runCli(args: string[], limitMs: number): Promise<Outcome> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(VITEST|PROTOCOL_SUITE_|TEST$|NODE_ENV$)/.test(key)),
  );
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...env, NO_COLOR: '1', PROTOCOL_SUITE_REVISIONS: '2024-11-05' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: limitMs,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  return new Promise((resolve) => {
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function listen<T extends Server | TcpServer>(server: T): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
    ),
  );
}

function close(server: Server | TcpServer): Promise<void> {
  if ('closeAllConnections' in server) server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('protocol-suite CLI', () => {
  beforeAll(() => {
    expect(existsSync(CLI), `${CLI} is missing: run pnpm --filter @mcp-workshop/protocol-suite build`).toBe(
      true,
    );
  });

  it('prints its usage on stdout and exits 0 for --help', async () => {
    const outcome = await runCli(['--help'], REFUSAL_MS);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('usage: protocol-suite --url');
    expect(outcome.stdout).toContain('dev/conformance-server/dist/index.js');
  });

  it.each([
    ['no --url', [], /^protocol-suite: --url is required \(usage: protocol-suite --url /],
    [
      'a malformed URL',
      ['--url', '127.0.0.1:3000/mcp'],
      /^protocol-suite: --url "127.0.0.1:3000\/mcp" must be an http/,
    ],
    ['a ws:// URL', ['--url', 'ws://127.0.0.1:3000/mcp'], /must be an http:\/\/ or https:\/\/ URL/],
    [
      'an unknown revision',
      ['--url', 'http://127.0.0.1:3000/mcp', '--revision', '2024-01-01'],
      /unknown revision 2024-01-01/,
    ],
    ['an unknown flag', ['--url', 'http://127.0.0.1:3000/mcp', '--watch'], /Unknown option '--watch'/],
  ])('exits 2 with one line on stderr for %s, starting nothing', async (_label, args, message) => {
    const outcome = await runCli(args, REFUSAL_MS);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
    expect(outcome.stderr).toMatch(message);
    expect(outcome.stdout).toBe('');
  });

  it('exits 1 quickly, with one line, when nothing listens at the URL', async () => {
    const probe = createTcpServer();
    const url = await listen(probe);
    await close(probe);
    const outcome = await runCli(['--url', url], REFUSAL_MS);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr.trim()).toBe(`protocol-suite: nothing answers at ${url} (ECONNREFUSED)`);
  });

  it('gives up on a server that accepts connections but never answers, within its probe time', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    const url = await listen(silent);
    try {
      // Killed (no exit code) if it waited on the silent server instead of giving up after its probe.
      const outcome = await runCli(['--url', url], 30_000);
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toMatch(/^protocol-suite: nothing answers at .* \(.*timeout.*\)/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await close(silent);
    }
  }, 40_000);

  it(
    'exits 1 with vitest failures when the URL answers but is not an MCP server',
    async () => {
      const notMcp = createServer((_req, res) => res.writeHead(404).end('not here'));
      const url = await listen(notMcp);
      try {
        const outcome = await runCli(['--url', url, '--revision', '2025-11-25'], RUN_MS);
        expect(outcome.code).toBe(1);
        expect(`${outcome.stdout}${outcome.stderr}`).toMatch(/initialize 2025-11-25 failed: HTTP 404/);
      } finally {
        await close(notMcp);
      }
    },
    RUN_MS,
  );

  describe('against a workshop server', () => {
    let server: SuiteTarget;

    // A whole server with its database, skills and task runtime, started beside the rest of
    // `pnpm test` on two cores: the 20 s default for hooks was once not enough.
    beforeAll(async () => {
      server = await openTarget(undefined);
    }, 60_000);

    afterAll(async () => {
      await server?.close();
    });

    it(
      'runs the chosen revision against that URL and exits 0',
      async () => {
        const outcome = await runCli(['--url', server.mcpUrl, '--revision', '2025-11-25'], RUN_MS);
        expect(outcome.code, outcome.stdout.slice(-2_000)).toBe(0);
        const cases = caseCounts()['2025-11-25'];
        expect(outcome.stdout).toMatch(new RegExp(`Tests\\s+${cases + COVERAGE_TESTS} passed`));
        // Only the revision asked for (a second one would add its cases to the count), even though the
        // environment the CLI inherited said PROTOCOL_SUITE_REVISIONS=2024-11-05.
        // The cases ran against this server, not one the suite started: their tasks are in its list.
        const client = await ProtocolClient.connect(server.mcpUrl, '2025-11-25');
        try {
          const reply = await client.request('tools/call', {
            name: 'list_tasks',
            arguments: { status: 'all' },
          });
          const structured = reply.response?.result?.structuredContent as { items?: { title?: string }[] };
          const items = structured?.items;
          expect(items?.some((task) => task.title?.startsWith('protocol-suite:'))).toBe(true);
        } finally {
          await client.close();
        }
      },
      RUN_MS,
    );
  });
});
