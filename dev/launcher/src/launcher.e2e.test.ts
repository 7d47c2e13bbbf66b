/**
 * End to end, every part a real process as in production: the built launcher starts the workshop
 * MCP server and the offline demo model, runs the agent's CLI against them over HTTP, and stops
 * them. Ports are picked per test, so a stack a developer left running is never touched.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '@mcp-workshop/shared/processes';
import { startAnnouncingServer } from '@mcp-workshop/test-infra';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isListening } from './probe.js';
import { entryOf, MCP_SERVER } from './services.js';

const LAUNCHER = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const run = promisify(execFile);
/** Each run starts up to three Node processes; a loaded CI machine needs the slack. */
const RUN_TIMEOUT_MS = 45_000;

interface RunResult {
  stdout: string;
  stderr: string;
}

/** The launcher with only PATH and `env`: no key, no stray settings from the developer's shell. */
function launcher(args: string[], env: Record<string, string>): Promise<RunResult> {
  return run(process.execPath, [LAUNCHER, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: RUN_TIMEOUT_MS,
  });
}

let dataDir: string;
let ports: { PORT: string; DEMO_MODEL_PORT: string };

beforeAll(() => {
  if (!existsSync(LAUNCHER)) throw new Error(`${LAUNCHER} is missing: run "pnpm build" (pnpm test does it).`);
});

afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function freshSettings() {
  dataDir = mkdtempSync(join(tmpdir(), 'launcher-e2e-'));
  ports = { PORT: String(await freePort()), DEMO_MODEL_PORT: String(await freePort()) };
  return { ...ports, DATA_DIR: dataDir };
}

describe('pnpm ask, through the launcher', () => {
  it('starts the server and the demo model as processes, answers, and stops both', async () => {
    const settings = await freshSettings();
    const { stdout, stderr } = await launcher(['ask', '--json', 'Calculate 12 * (3 + 4)'], settings);

    const output = JSON.parse(stdout) as {
      answer: string;
      servers: Array<{ protocolVersion: string; target: string }>;
      toolCalls: Array<Record<string, unknown>>;
    };
    expect(output.answer).toContain('84');
    expect(output.servers[0]).toMatchObject({
      protocolVersion: '2026-07-28',
      target: `http://127.0.0.1:${ports.PORT}/mcp`,
    });
    expect(output.toolCalls[0]).toMatchObject({
      functionName: 'calculate',
      isError: false,
      result: { structuredContent: { result: 84 } },
    });
    // With --json the notes go to stderr, so stdout is exactly one JSON object.
    expect(stderr).toMatch(
      new RegExp(
        `note: +started the workshop MCP server at http://127\\.0\\.0\\.1:${ports.PORT}/mcp \\(process \\d+`,
      ),
    );
    expect(stderr).toMatch(/started the offline demo model at http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(await isListening('127.0.0.1', Number(ports.PORT))).toBe(false);
    expect(await isListening('127.0.0.1', Number(ports.DEMO_MODEL_PORT))).toBe(false);
  });

  it('keeps tasks in DATA_DIR, where the next question finds them', async () => {
    const settings = await freshSettings();
    const added = await launcher(['ask', 'Add a task: "Water the plants"'], settings);
    expect(added.stdout).toContain(`tasks in ${dataDir}`);
    expect(existsSync(join(dataDir, 'tasks.db'))).toBe(true);

    const listed = await launcher(['ask', '--json', 'List my tasks'], settings);
    const output = JSON.parse(listed.stdout) as { toolCalls: Array<{ result?: unknown }> };
    expect(JSON.stringify(output.toolCalls[0]?.result)).toContain('Water the plants');
  });

  it('prints the notes before the trace when not in --json mode', async () => {
    const { stdout } = await launcher(['ask', 'What is 6 * 7?'], await freshSettings());
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^note: +started the workshop MCP server/);
    expect(lines[1]).toMatch(/^note: +No OPENAI_API_KEY or OPENAI_BASE_URL: started the offline demo model/);
    expect(stdout).toContain('42');
  });

  it('starts the demo model without pauses between stream events, since ask prints whole answers', async () => {
    // At info, the demo model logs how it paces its streams when it starts listening.
    const { stderr } = await launcher(['ask', 'What is 6 * 7?'], {
      ...(await freshSettings()),
      LOG_LEVEL: 'info',
    });
    expect(stderr).toMatch(/"service":"demo-model".*"chunkDelayMs":0,/);
  });

  it('names the service that failed to start, stops the other and the waiting agent, and exits 1', async () => {
    // The demo model refuses this value; the server, started at the same time, comes up fine.
    const attempt = launcher(['ask', 'What is 6 * 7?'], {
      ...(await freshSettings()),
      DEMO_MODEL_CHUNK_DELAY_MS: 'slow',
    });
    await expect(attempt).rejects.toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('the offline demo model exited with code 1 before it was ready'),
    });
    const { stderr } = (await attempt.catch((error: unknown) => error)) as RunResult;
    expect(stderr).toContain('DEMO_MODEL_CHUNK_DELAY_MS');
    // The launcher stopped the agent itself; it did not have to notice its launcher had gone.
    expect(stderr).not.toContain('the launcher went away');
    expect(await isListening('127.0.0.1', Number(ports.PORT))).toBe(false);
  });

  it('passes on the agent’s usage error and exit code, and stops what it started', async () => {
    const attempt = launcher(['ask'], await freshSettings());
    await expect(attempt).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Ask something'),
    });
    expect(await isListening('127.0.0.1', Number(ports.PORT))).toBe(false);
    expect(await isListening('127.0.0.1', Number(ports.DEMO_MODEL_PORT))).toBe(false);
  });

  it('lets the agent answer --help, starting nothing', async () => {
    const { stdout, stderr } = await launcher(['ask', '--help'], await freshSettings());
    expect(stderr).toContain('pnpm ask [--json] "your question"');
    // No notes: nothing was looked for or started.
    expect(stdout).toBe('');
  });

  it('exits non-zero, naming the URL, when MCP_SERVER_URL points at nothing', async () => {
    const attempt = launcher(['ask', 'hello'], {
      ...(await freshSettings()),
      MCP_SERVER_URL: 'http://127.0.0.1:9/mcp',
      MCP_CONNECT_ATTEMPTS: '1',
    });
    await expect(attempt).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('http://127.0.0.1:9/mcp'),
    });
  });
});

describe('pnpm ask, with a server already listening', () => {
  let server: ChildProcess;
  let serverPort: string;
  let serverDir: string;

  beforeAll(async () => {
    serverDir = mkdtempSync(join(tmpdir(), 'launcher-e2e-running-'));
    // On a port the OS picks, ready when it says so: a port chosen here could be taken in between.
    const started = await startAnnouncingServer({
      entry: entryOf(MCP_SERVER.packageName),
      env: { DATA_DIR: serverDir },
      timeoutMs: 20_000,
      name: 'the pre-started server',
    });
    server = started.child;
    serverPort = new URL(started.mcpUrl).port;
  });
  afterAll(async () => {
    server?.kill('SIGTERM');
    if (server && server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
    rmSync(serverDir, { recursive: true, force: true });
  });

  it('uses it, says so, and leaves it running', async () => {
    const settings = { ...(await freshSettings()), PORT: serverPort };
    const { stdout } = await launcher(['ask', 'What is 6 * 7?'], settings);
    expect(stdout).toContain(
      `note:   using the MCP server already listening at http://127.0.0.1:${serverPort}/mcp`,
    );
    expect(stdout).not.toContain('started the workshop MCP server');
    expect(await isListening('127.0.0.1', Number(serverPort))).toBe(true);
  });
});

describe('pnpm demo, through the launcher', () => {
  it('asks its five questions against a fresh server with a temporary database, then exits 0', async () => {
    const { stdout } = await launcher(['demo'], { DEMO_MODEL_PORT: '0' });
    expect(stdout).toMatch(
      /started the workshop MCP server at .* \(process \d+, a temporary task database\)/,
    );
    expect(stdout.match(/^━━ \d\/5: /gm)).toHaveLength(5);
    expect(stdout).toContain('Pack an umbrella for Bergen');
  });
});
