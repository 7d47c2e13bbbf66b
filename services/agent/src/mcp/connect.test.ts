import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import {
  type AddressInfo,
  connect as connectSocket,
  createServer as createNetServer,
  type Socket,
} from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_DIST_ENTRY } from '../test-support/workshop-process.js';
import type { InputHandler } from '../types.js';
import { visibleToModel } from '../views/ui-meta.js';
import type { ServerSpec } from './config.js';
import { type ConnectedServer, connectServer } from './connect.js';
import { McpConnectError, type RetryPolicy } from './retry.js';
import { startFixtureServer, startLegacyServer } from './test-support/fixture-server.js';
import { captureLogger, silentLogger } from './test-support/logger.js';
import { freePort, type ServedFetch } from './test-support/serve-fetch.js';
import { listModelToolNames, startWorkshopServer, type WorkshopServer } from './test-support/workshop.js';

/** services/mcp-server/dist/index.js is four levels below the repository root. */
const REPO_ROOT = join(SERVER_DIST_ENTRY, '../../../..');
const clientInfo = { name: 'agent-test', version: '0.0.0' };
const refuseInput: InputHandler = async () => ({ action: 'decline' });
/** Short waits, so retry tests take well under a second. */
const FAST_RETRY: RetryPolicy = { attempts: 3, initialDelayMs: 50, maxDelayMs: 200 };

/** A connection keeps every tool, app-only ones too (the hub hides those); these are the model's. */
const modelToolNames = (server: ConnectedServer) =>
  server.tools.filter((tool) => visibleToModel(tool.ui)).map((tool) => tool.name);

describe('connectServer', () => {
  let workshop: WorkshopServer;
  const opened: ConnectedServer[] = [];
  beforeAll(async () => {
    workshop = await startWorkshopServer();
  });
  afterAll(async () => {
    await Promise.all(opened.map((server) => server.close()));
    await workshop.close();
  });

  it('negotiates the 2026-07-28 protocol with the workshop server and lists its tools', async () => {
    const server = await connectServer(
      { transport: 'http', name: 'workshop', url: workshop.url },
      { clientInfo, onInput: refuseInput, logger: silentLogger() },
    );
    opened.push(server);
    expect(server.info).toMatchObject({
      name: 'workshop',
      target: workshop.url,
      era: 'modern',
      protocolVersion: '2026-07-28',
      implementation: { name: 'mcp-workshop-server' },
    });
    expect(server.info.instructions).toContain('Workshop server');
    expect(modelToolNames(server)).toEqual(await listModelToolNames(workshop.url));
    expect(server.tools.map((tool) => tool.name)).toContain('get_weather');
    // MCP Apps: the task board's app-only tool is kept, for its view to call.
    expect(server.tools.find((tool) => tool.name === 'task_board_refresh')?.ui?.visibility).toEqual(['app']);
    const weather = server.tools.find((tool) => tool.name === 'get_weather');
    expect(weather).toMatchObject({ server: 'workshop', inputSchema: { type: 'object' } });
    expect(weather?.outputSchema).toBeDefined();
  });

  it('falls back to the 2025 handshake for a server that only speaks 2025', async () => {
    const legacy = await startLegacyServer();
    try {
      const server = await connectServer(
        { transport: 'http', name: 'old', url: legacy.url },
        { clientInfo, onInput: refuseInput, logger: silentLogger() },
      );
      expect(server.info.era).toBe('legacy');
      expect(server.info.protocolVersion).toMatch(/^2025-/);
      expect(server.tools.map((tool) => tool.name)).toContain('legacy_echo');
      await server.close();
    } finally {
      await legacy.close();
    }
  });

  it('names the URL, the attempts and the cause when nothing listens', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const { logger, lines } = captureLogger('warn');
    const error = await connectServer(
      { transport: 'http', name: 'workshop', url, hint: 'Start it with "pnpm start".' },
      { clientInfo, onInput: refuseInput, logger, retry: FAST_RETRY },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConnectError);
    const message = (error as McpConnectError).message;
    expect(message).toMatch(
      new RegExp(
        `^Could not reach the MCP server "workshop" at ${url} after 3 attempts \\(.*ECONNREFUSED.*\\)\\. Is it running\\? Start it with "pnpm start"\\.$`,
      ),
    );
    expect(error).toMatchObject({ server: 'workshop', target: url, attempts: 3 });
    // One warning per retry, none after the last attempt.
    expect(lines.filter((line) => line.msg === 'MCP server not reachable yet; retrying')).toHaveLength(2);
  });

  it('does not retry when the server answers HTTP 404, and says to check the URL', async () => {
    const url = workshop.url.replace(/\/mcp$/, '/wrong');
    const error = await connectServer(
      { transport: 'http', name: 'workshop', url },
      { clientInfo, onInput: refuseInput, logger: silentLogger(), retry: FAST_RETRY },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as Error).message).toBe(
      `The MCP server "workshop" at ${url} answered with an error after 1 attempt (HTTP 404 Not Found). ` +
        'Check the URL (the path usually ends in /mcp) and any headers it needs, such as Authorization.',
    );
  });

  it('connects once the server starts listening after a failed attempt', async () => {
    const port = await freePort();
    const captured = captureLogger('warn');
    let late: Promise<ServedFetch> | undefined;
    captured.onLine = () => {
      late ??= startLegacyServer(port);
    };
    const connecting = connectServer(
      { transport: 'http', name: 'late', url: `http://127.0.0.1:${port}/mcp` },
      {
        clientInfo,
        onInput: refuseInput,
        logger: captured.logger,
        retry: { attempts: 5, initialDelayMs: 100, maxDelayMs: 400 },
      },
    );
    try {
      const server = await connecting;
      expect(late).toBeDefined();
      expect(server.tools.map((tool) => tool.name)).toContain('legacy_echo');
      await server.close();
    } finally {
      await connecting.catch(() => {});
      await (await late)?.close();
    }
  });

  it('does not retry a command that does not exist', async () => {
    const spec: ServerSpec = {
      transport: 'stdio',
      name: 'ghost',
      command: 'no-such-mcp-server-xyz',
      args: ['--stdio'],
    };
    const error = await connectServer(spec, {
      clientInfo,
      onInput: refuseInput,
      logger: silentLogger(),
      retry: FAST_RETRY,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as Error).message).toMatch(
      /^Could not start the MCP server "ghost" \(no-such-mcp-server-xyz --stdio\) after 1 attempt \(.*ENOENT.*\)\./,
    );
  });

  it('quotes the stderr of a stdio server that exits at start-up', async () => {
    const spec: ServerSpec = {
      transport: 'stdio',
      name: 'crashy',
      command: process.execPath,
      args: ['-e', 'console.error("DATA_DIR is not writable"); process.exit(3)'],
    };
    const error = await connectServer(spec, {
      clientInfo,
      onInput: refuseInput,
      logger: silentLogger(),
      retry: { attempts: 2, initialDelayMs: 10, maxDelayMs: 10 },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as Error).message).toContain('after 2 attempts');
    expect((error as Error).message).toContain('DATA_DIR is not writable');
  });

  it('stops retrying when its signal is aborted', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const controller = new AbortController();
    const captured = captureLogger('warn');
    // Aborted as the first wait between attempts begins; that wait outlasts the test's own timeout,
    // so only the abort can end it.
    captured.onLine = (line) => {
      if (line.msg === 'MCP server not reachable yet; retrying') controller.abort(new Error('shutting down'));
    };
    const error = await connectServer(
      { transport: 'http', name: 'workshop', url },
      {
        clientInfo,
        onInput: refuseInput,
        logger: captured.logger,
        retry: { attempts: 10, initialDelayMs: 10 * 60_000, maxDelayMs: 10 * 60_000 },
        signal: controller.signal,
      },
    ).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('shutting down');
    expect(
      captured.lines.filter((line) => line.msg === 'MCP server not reachable yet; retrying'),
    ).toHaveLength(1);
  });

  it('starts the built workshop server over stdio and lists its tools', async () => {
    expect(
      existsSync(SERVER_DIST_ENTRY),
      `${SERVER_DIST_ENTRY} is missing. Build it first: cd ${REPO_ROOT} && pnpm --filter @mcp-workshop/mcp-server build`,
    ).toBe(true);
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-stdio-'));
    const { logger, lines } = captureLogger('debug');
    try {
      const server = await connectServer(
        {
          transport: 'stdio',
          name: 'workshop',
          command: process.execPath,
          args: [SERVER_DIST_ENTRY, '--stdio'],
          env: { DATA_DIR: dataDir, LOG_LEVEL: 'info' },
        },
        { clientInfo, onInput: refuseInput, logger },
      );
      try {
        expect(server.info).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
        expect(server.info.target).toBe(`${process.execPath} ${SERVER_DIST_ENTRY} --stdio`);
        expect(modelToolNames(server)).toEqual(await listModelToolNames(workshop.url));
      } finally {
        await server.close();
      }
      // The server's own log lines arrive through our logger, not on the terminal.
      expect(
        lines.some((line) => line.msg === 'MCP server stderr' && String(line.stderr).includes('stdio')),
      ).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('logs nothing at warning level when it closes its own connection (a close is not a drop)', async () => {
    // A server whose tool list may change (as `pnpm dev`'s does) gets a tool-change subscription.
    const fixture = await startFixtureServer();
    const { logger, lines } = captureLogger('warn');
    try {
      const server = await connectServer(
        { transport: 'http', name: 'fixture', url: fixture.url },
        { clientInfo, onInput: refuseInput, logger },
      );
      const subscription = server.client.autoOpenedSubscription;
      expect(subscription, 'the connection opens a tool-change subscription').toBeDefined();
      await server.close();
      await subscription?.closed;
      // The warning is logged from a callback on `closed`: let it run before looking.
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines).toEqual([]);
    } finally {
      await fixture.close();
    }
  });

  it('warns when the connection under an open subscription breaks', async () => {
    const fixture = await startFixtureServer();
    // A TCP relay to the fixture that the test can cut, as a crash or a lost network would.
    const sockets = new Set<Socket>();
    const relay = createNetServer((inbound) => {
      const outbound = connectSocket(Number(new URL(fixture.url).port), '127.0.0.1');
      for (const socket of [inbound, outbound]) {
        sockets.add(socket);
        socket.on('error', () => {});
      }
      inbound.pipe(outbound).pipe(inbound);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const url = new URL(fixture.url);
    url.port = String((relay.address() as AddressInfo).port);
    const { logger, lines } = captureLogger('warn');
    const server = await connectServer(
      { transport: 'http', name: 'fixture', url: url.href },
      { clientInfo, onInput: refuseInput, logger },
    );
    try {
      const subscription = server.client.autoOpenedSubscription;
      expect(subscription).toBeDefined();
      for (const socket of sockets) socket.destroy();
      expect(await subscription?.closed).toBe('remote');
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines).toEqual([expect.objectContaining({ level: 40, server: 'fixture' })]);
      expect(String(lines[0]?.msg)).toContain('subscription dropped');
      expect(server.hooks.toolsChanged).toBe(true);
    } finally {
      await server.close();
      await new Promise((resolve) => relay.close(resolve));
      await fixture.close();
    }
  });
});
