/**
 * The README's commands that start something, run as a participant types them: `pnpm start`,
 * `pnpm start:secure` beside it, and `pnpm demo`, from the repository's root, with the ports moved by
 * env so a stack left running on the usual ports is never touched. Ctrl-C is what a terminal sends:
 * SIGINT to the command's whole process group. Partner of scripts/stack.mjs (`pnpm start`).
 *
 * These commands build before they run; turbo.json has this package's tests wait for every package's
 * build, so theirs find everything built and write nothing while other packages' tests read it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePorts } from '@mcp-workshop/shared/processes';
import { afterEach, describe, expect, it } from 'vitest';
import { isListening } from './probe.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** Safety net only: a cold start of three or four services on a loaded two-core machine. */
const UP_TIMEOUT_MS = 240_000;
/** Safety net only: the services' own shutdown, then turbo's. */
const STOP_TIMEOUT_MS = 60_000;
const POLL_MS = 500;
/** Per test: start, a question or two, stop; the nets above bound each step. */
const TEST_TIMEOUT_MS = 600_000;

/** A `pnpm …` run from the root in a process group of its own, as a terminal runs a command. */
interface Command {
  child: ChildProcess;
  /** Everything it printed, stdout and stderr interleaved as they came. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: Command[] = [];
const scratch: string[] = [];

afterEach(async () => {
  for (const command of running.splice(0)) {
    if (command.child.exitCode === null && command.child.signalCode === null) {
      process.kill(-(command.child.pid ?? 0), 'SIGKILL');
    }
  }
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Only what a participant's shell would hand on: no key, no ports or URLs from this test run's env. */
function participantEnv(settings: Record<string, string>): Record<string, string> {
  const kept = ['PATH', 'HOME', 'CI', 'TURBO_TELEMETRY_DISABLED', 'DO_NOT_TRACK'];
  const env: Record<string, string> = {};
  for (const key of kept) if (process.env[key] !== undefined) env[key] = process.env[key] as string;
  return { ...env, ...settings };
}

function pnpm(args: string[], settings: Record<string, string>): Command {
  const child = spawn('pnpm', args, {
    cwd: ROOT,
    env: participantEnv(settings),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let text = '';
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const command = { child, output: () => text, exited };
  running.push(command);
  return command;
}

/** Ctrl-C in the command's terminal: SIGINT to its process group. */
function interrupt(command: Command): void {
  process.kill(-(command.child.pid ?? 0), 'SIGINT');
}

/** The last lines a failure shows, so the report says why without the whole build log. */
const tail = (text: string) => text.split('\n').slice(-40).join('\n');

/** Waits until every URL answers 2xx; fails, with the command's output, if it exits first. */
async function waitUntilUp(command: Command, urls: string[]): Promise<void> {
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void command.exited.then((result) => {
    exit = result;
  });
  const deadline = Date.now() + UP_TIMEOUT_MS;
  for (;;) {
    if (exit) {
      throw new Error(
        `pnpm exited (${exit.code ?? exit.signal}) before ${urls.join(', ')} answered:\n${tail(command.output())}`,
      );
    }
    const answers = await Promise.all(
      urls.map((url) =>
        fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
          (response) => response.ok,
          () => false,
        ),
      ),
    );
    if (answers.every(Boolean)) return;
    if (Date.now() > deadline) throw new Error(`not up in time:\n${tail(command.output())}`);
    await sleep(POLL_MS);
  }
}

/** Waits until the command's output contains `text` (a banner printed after the health checks pass). */
async function waitForOutput(command: Command, text: string): Promise<void> {
  const deadline = Date.now() + UP_TIMEOUT_MS;
  while (!command.output().includes(text)) {
    if (command.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`no "${text}" in:\n${tail(command.output())}`);
    }
    await sleep(POLL_MS);
  }
}

async function stopped(command: Command, safetyNetMs = STOP_TIMEOUT_MS) {
  const timer = setTimeout(() => process.kill(-(command.child.pid ?? 0), 'SIGKILL'), safetyNetMs);
  const result = await command.exited;
  clearTimeout(timer);
  return result;
}

/** Ports and a data folder for one `pnpm start`, as its env variables. */
async function startSettings(): Promise<Record<string, string>> {
  const [PORT, AGENT_PORT, DEMO_MODEL_PORT, AGENT_VIEW_SANDBOX_PORT] = (await freePorts(4)).map(String);
  const DATA_DIR = mkdtempSync(join(tmpdir(), 'readme-start-'));
  scratch.push(DATA_DIR);
  return { PORT, AGENT_PORT, DEMO_MODEL_PORT, AGENT_VIEW_SANDBOX_PORT, DATA_DIR } as Record<string, string>;
}

/** `pnpm start`, up: its three services answer on their health URLs (the agent's: connected). */
async function startStack(settings: Record<string, string>): Promise<Command> {
  const stack = pnpm(['start'], settings);
  await waitUntilUp(stack, [
    `http://127.0.0.1:${settings.PORT}/health`,
    `http://127.0.0.1:${settings.DEMO_MODEL_PORT}/health`,
    `http://127.0.0.1:${settings.AGENT_PORT}/health`,
  ]);
  return stack;
}

interface ChatAnswer {
  answer: string;
  toolCalls: Array<{ functionName: string; isError: boolean; result?: { structuredContent?: unknown } }>;
}

async function chat(agentPort: string, message: string): Promise<ChatAnswer> {
  const response = await fetch(`http://127.0.0.1:${agentPort}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as ChatAnswer;
}

describe('pnpm start', () => {
  it(
    'starts the three services, answers through the agent with a tool call, and stops quietly on Ctrl-C',
    async () => {
      const settings = await startSettings();
      const stack = await startStack(settings);

      const { answer, toolCalls } = await chat(settings.AGENT_PORT as string, 'Calculate 12 * (3 + 4)');
      expect(toolCalls[0]).toMatchObject({
        functionName: 'calculate',
        isError: false,
        result: { structuredContent: { result: 84 } },
      });
      expect(answer).toContain('84');
      await waitForOutput(stack, 'The workshop is up (pnpm start):');
      expect(stack.output()).toContain(`chat page      http://127.0.0.1:${settings.AGENT_PORT}\n`);
      expect(stack.output()).toContain(`MCP server     http://127.0.0.1:${settings.PORT}/mcp\n`);
      expect(stack.output()).toContain(
        `view sandbox   http://127.0.0.1:${settings.AGENT_VIEW_SANDBOX_PORT} `,
      );

      interrupt(stack);
      expect(await stopped(stack)).toEqual({ code: 0, signal: null });
      const output = stack.output();
      expect(output).not.toContain('ELIFECYCLE');
      // Exactly the deployable services ran: no other package's start.
      const started = new Set([...output.matchAll(/^(@mcp-workshop\/[\w-]+):start: /gm)].map((m) => m[1]));
      expect([...started].sort()).toEqual([
        '@mcp-workshop/agent',
        '@mcp-workshop/demo-model',
        '@mcp-workshop/mcp-server',
      ]);
      for (const port of [settings.PORT, settings.AGENT_PORT, settings.DEMO_MODEL_PORT]) {
        expect(await isListening('127.0.0.1', Number(port))).toBe(false);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'runs beside pnpm start:secure on other ports, each stack answering through its own agent',
    async () => {
      const open = await startSettings();
      const stack = await startStack(open);
      const [AUTH_PORT, PORT, AGENT_PORT, DEMO_MODEL_PORT, AGENT_VIEW_SANDBOX_PORT] = (
        await freePorts(5)
      ).map(String) as [string, string, string, string, string];
      const secure = pnpm(['start:secure'], {
        AUTH_PORT,
        PORT,
        AGENT_PORT,
        DEMO_MODEL_PORT,
        AGENT_VIEW_SANDBOX_PORT,
        DATA_DIR: open.DATA_DIR as string,
      });
      await waitForOutput(secure, 'Sign-in is on.');
      // Signed in as a machine, the secure stack's agent calls its server with a token.
      const signedIn = await chat(AGENT_PORT, 'Calculate 2 + 3');
      expect(signedIn.toolCalls[0]).toMatchObject({ functionName: 'calculate', isError: false });
      // Without one, its MCP server refuses: sign-in really is on there.
      const anonymous = await fetch(`http://127.0.0.1:${PORT}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(anonymous.status).toBe(401);
      const open3 = await chat(open.AGENT_PORT as string, 'Calculate 6 * 7');
      expect(open3.toolCalls[0]).toMatchObject({ functionName: 'calculate', isError: false });

      interrupt(secure);
      interrupt(stack);
      expect(await stopped(secure)).toMatchObject({ code: 0 });
      expect(await stopped(stack)).toEqual({ code: 0, signal: null });
      expect(secure.output()).not.toContain('ELIFECYCLE');
      expect(stack.output()).not.toContain('ELIFECYCLE');
    },
    TEST_TIMEOUT_MS,
  );
});

describe('pnpm demo', () => {
  it(
    'asks its five questions and ends with the next steps, exiting 0',
    async () => {
      // The demo starts a server of its own on a free port, and the demo model on any free port (0).
      const demo = pnpm(['demo'], { DEMO_MODEL_PORT: '0' });
      const result = await stopped(demo, UP_TIMEOUT_MS);
      const output = demo.output();
      expect(result, tail(output)).toEqual({ code: 0, signal: null });
      expect(output.match(/^━━ \d\/5: /gm)).toHaveLength(5);
      expect(output.trimEnd()).toMatch(
        /Next: `pnpm ask "your question"`, `pnpm chat`, or `pnpm start` for the HTTP API on port 3001\.$/,
      );
    },
    TEST_TIMEOUT_MS,
  );
});
