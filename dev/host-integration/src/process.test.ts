/**
 * The built server as a real process, the way Claude Desktop, Codex CLI and `pnpm start` run it:
 * stdio with nothing but protocol on stdout, and an HTTP server whose tasks survive a restart.
 * Needs the catalogue's `dist/` (turbo builds it before `test`).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort, modernMeta, TASKS_CAPABILITIES } from '@mcp-workshop/test-infra';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import sqlite from 'node-sqlite3-wasm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WORKSHOP_ENTRY as ENTRY } from './test-support/built-server.js';

/** Upper bound on waiting for a child process to start or stop. */
const PROCESS_WAIT_MS = 10_000;

let dataDir: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(() => {
  if (!existsSync(ENTRY))
    throw new Error(`${ENTRY} is missing: run "pnpm build" (pnpm test does it for you).`);
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function start(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [ENTRY, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: 'pipe',
  });
  children.push(child);
  return child;
}

/** Resolves with the exit code and everything the child wrote to stderr. */
function exitOf(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(
      () => reject(new Error(`no exit within ${PROCESS_WAIT_MS} ms`)),
      PROCESS_WAIT_MS,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

async function waitForHealth(baseUrl: string): Promise<void> {
  const deadline = Date.now() + PROCESS_WAIT_MS;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${baseUrl} did not become healthy within ${PROCESS_WAIT_MS} ms`);
}

describe('node dist/index.js --stdio', () => {
  it('writes only JSON-RPC messages to stdout and its logs to stderr', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mcp-stdio-'));
    const child = start(['--stdio'], { DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const lines = createInterface({ input: child.stdout });
    const received: unknown[] = [];
    // Every stdout line must be JSON-RPC; notifications (e.g. resources/list_changed) are kept
    // but skipped when waiting for the response to a request id.
    const nextMessage = () =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no response on stdout in time')), PROCESS_WAIT_MS);
        const onLine = (line: string) => {
          const parsed = JSON.parse(line) as Record<string, unknown>; // throws on any non-JSON byte
          received.push(parsed);
          if (!('id' in parsed)) return;
          clearTimeout(timer);
          lines.off('line', onLine);
          resolve(parsed);
        };
        lines.on('line', onLine);
      });
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);

    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw-stdio', version: '0' },
      },
    });
    expect(await nextMessage()).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18' } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add_task', arguments: { title: 'stdio task' } },
    });
    const call = await nextMessage();
    expect(call).toMatchObject({ id: 2, result: { isError: false } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope', arguments: {} } });
    expect(await nextMessage()).toMatchObject({ id: 3, error: { code: -32602 } });

    for (const message of received) expect(message).toMatchObject({ jsonrpc: '2.0' });
    expect(stderr).toMatch(/serving MCP over stdio/);
    child.stdin.end();
  });

  it('sends notifications/tasks over stdio to the 2026-07-28 subscription that named the task, and only to it', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mcp-stdio-'));
    const child = start(['--stdio'], { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    const received: Array<Record<string, unknown>> = [];
    createInterface({ input: child.stdout }).on('line', (line) => received.push(JSON.parse(line)));
    const until = async (found: (message: Record<string, unknown>) => boolean) => {
      for (let waited = 0; waited < PROCESS_WAIT_MS; waited += 20) {
        const message = received.find(found);
        if (message) return message;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`not heard on stdout: ${JSON.stringify(received)}`);
    };
    const send = (id: number, method: string, params: Record<string, unknown>) =>
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta(TASKS_CAPABILITIES) } })}\n`,
      );

    send(1, 'server/discover', {});
    await until((message) => message.id === 1);
    send(2, 'tools/call', {
      name: 'generate_report',
      // Long enough (1.8 s) for the listen below to be in place before it completes.
      arguments: { topic: 'cities', steps: 3, delayMs: 600 },
    });
    const created = (await until((message) => message.id === 2)).result as {
      taskId: string;
      resultType: string;
    };
    expect(created.resultType).toBe('task');
    send(3, 'subscriptions/listen', { notifications: { taskIds: [created.taskId] } });
    send(4, 'subscriptions/listen', { notifications: { taskIds: ['AAAAAAAAAAAAAAAAAAAAAA'] } });
    const ack = await until(
      (message) =>
        message.method === 'notifications/subscriptions/acknowledged' &&
        JSON.stringify(message.params).includes(created.taskId),
    );
    expect(ack.params).toMatchObject({ notifications: { taskIds: [created.taskId] } });
    const done = await until(
      (message) =>
        message.method === 'notifications/tasks' && JSON.stringify(message.params).includes('"completed"'),
    );
    expect(done.params).toMatchObject({
      taskId: created.taskId,
      status: 'completed',
      result: { structuredContent: { topic: 'cities' } },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 3 },
    });
    // Every task notification went to subscription 3; none to 4, which named another task.
    const subscriptions = received
      .filter((message) => message.method === 'notifications/tasks')
      .map(
        (message) =>
          (message.params as { _meta: Record<string, unknown> })._meta[
            'io.modelcontextprotocol/subscriptionId'
          ],
      );
    expect(new Set(subscriptions)).toEqual(new Set([3]));
    child.stdin.end();
  });

  it('serves the official client, which negotiates the 2026-07-28 era when asked', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mcp-stdio-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [ENTRY, '--stdio'],
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('get_weather');
      const result = await client.callTool({
        name: 'get_weather',
        arguments: { location: 'Trondheim', days: 2 },
      });
      expect(result.isError).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe('the MCP Apps views of the built server', () => {
  /** Reads both views over stdio from a server started with `env`; returns each one's CSP and text. */
  async function readViews(env: Record<string, string>) {
    dataDir = mkdtempSync(join(tmpdir(), 'mcp-views-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [ENTRY, '--stdio'],
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'views-test', version: '0' });
    await client.connect(transport);
    try {
      const read = async (uri: string) => {
        const [content] = (await client.readResource({ uri })).contents as Array<{
          text?: string;
          _meta?: { ui?: { csp?: unknown } };
        }>;
        return { csp: content?._meta?.ui?.csp, text: content?.text ?? '' };
      };
      return { weather: await read('ui://weather/forecast'), board: await read('ui://tasks/board') };
    } finally {
      await client.close();
    }
  }

  it('serves the built HTML and lets no outside origin in with the offline weather (the default)', async () => {
    const { weather, board } = await readViews({});
    expect(weather.csp).toEqual({ connectDomains: [], resourceDomains: [] });
    expect(board.csp).toEqual({ connectDomains: [], resourceDomains: [] });
    expect(weather.text).toMatch(/^<!doctype html>/i);
    expect(board.text).toMatch(/^<!doctype html>/i);
  });

  it("names exactly the configured Open-Meteo origins in the weather view's CSP when that provider is on", async () => {
    // Loopback URLs that nothing serves: reading a view never calls the weather source.
    const { weather, board } = await readViews({
      WEATHER_PROVIDER: 'open-meteo',
      OPEN_METEO_GEOCODING_URL: 'http://127.0.0.1:9/v1/search',
      OPEN_METEO_FORECAST_URL: 'http://localhost:9/v1/forecast',
    });
    expect(weather.csp).toEqual({
      connectDomains: ['http://127.0.0.1:9', 'http://localhost:9'],
      resourceDomains: [],
    });
    expect(board.csp).toEqual({ connectDomains: [], resourceDomains: [] });
  });
});

describe('HTTP server restart', () => {
  it('keeps the tasks in the database file across a restart', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mcp-restart-'));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };

    const first = start([], env);
    await waitForHealth(baseUrl);
    const added = await fetch(`${baseUrl}/tools/add_task`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Survive a restart' }),
    });
    expect(((await added.json()) as { isError: boolean }).isError).toBe(false);
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGTERM');
    await exited;

    start([], env);
    await waitForHealth(baseUrl);
    const listed = await fetch(`${baseUrl}/tools/list_tasks`, { method: 'POST' });
    const data = (await listed.json()) as { structuredContent: { items: Array<{ title: string }> } };
    expect(data.structuredContent.items.map((task) => task.title)).toContain('Survive a restart');
  });
});

describe('start-up failures', () => {
  it('stops with a message naming DATA_DIR when that folder cannot be created', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mcp-bad-dir-'));
    const file = join(dataDir, 'a-file');
    writeFileSync(file, '');
    const { code, stderr } = await exitOf(start(['--stdio'], { DATA_DIR: join(file, 'data') }));
    expect(code).toBe(1);
    expect(stderr).toContain('DATA_DIR=');
    expect(stderr).toContain('Point DATA_DIR at a folder');
  });

  it('stops with the reason when the task database, opened after start-up, cannot be used', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mcp-bad-db-'));
    const db = new sqlite.Database(join(dataDir, 'tasks.db'));
    db.exec('PRAGMA user_version = 99');
    db.close();
    // stdin stays open, so only the failed open can end the process.
    const { code, stderr } = await exitOf(start(['--stdio'], { DATA_DIR: dataDir, LOG_LEVEL: 'warn' }));
    expect(code).toBe(1);
    expect(stderr).toMatch(/schema version 99.*point DATA_DIR at another directory/);
  });
});
