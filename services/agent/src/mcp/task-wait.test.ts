/**
 * Tests for following MCP Tasks (`task-wait.ts`, through the hub): the real connection and hub
 * against a task server that speaks the 2026-07-28 wire and misbehaves on purpose
 * (`test-support/task-server.ts`), and against a server without the extension.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MinimalMcpServer, startMinimalMcpServer } from '../test-support/minimal-mcp-server.js';
import {
  ENDLESS_TTL_MS,
  JOB_FAILED_CODE,
  JOB_FAILED_MESSAGE,
  REPORT,
  startTaskServer,
  TASKS_EXTENSION,
  type TaskServer,
} from '../test-support/task-server.js';
import type { CallOptions, TaskInfo } from '../types.js';
import { connectServer } from './connect.js';
import { createMcpHub, type QualifiedMcpHub } from './hub.js';
import { DEFAULT_TASK_POLL_MS, MAX_TASK_POLL_MS, MIN_TASK_POLL_MS, pollInterval } from './task-wait.js';
import { silentLogger } from './test-support/logger.js';

const CALL_TIMEOUT_MS = 5_000;
/** Longer than any test here may run: a wait bounded by it can only end by the event under test. */
const NEVER_MS = 10 * 60_000;

let server: TaskServer;
let minimal: MinimalMcpServer;
let hub: QualifiedMcpHub;

beforeAll(async () => {
  [server, minimal] = await Promise.all([startTaskServer(), startMinimalMcpServer()]);
  const options = {
    clientInfo: { name: 'agent-test', version: '0.0.0' },
    logger: silentLogger(),
    onInput: async () => ({ action: 'decline' as const }),
    retry: { attempts: 1, initialDelayMs: 0, maxDelayMs: 0 },
  };
  const connected = await Promise.all([
    connectServer({ transport: 'http', name: 'tasks', url: server.url }, options),
    connectServer({ transport: 'http', name: 'plain', url: minimal.url }, options),
  ]);
  hub = createMcpHub(connected, silentLogger());
});
afterAll(async () => {
  await hub?.close();
  await Promise.all([server?.close(), minimal?.close()]);
});

const call = (tool: string, args: Record<string, unknown> = {}, options: Partial<CallOptions> = {}) =>
  hub.callTool('tasks', tool, args, { timeoutMs: CALL_TIMEOUT_MS, ...options });

const requestsFor = (taskId: string | undefined) =>
  server.requests.filter((request) => request.taskId === taskId);

describe('waitForTask through the hub', () => {
  it('polls a task to completed and hands back its exact result, with what it saw', async () => {
    const seen: TaskInfo[] = [];
    const outcome = await call('report', { ms: 400 }, { onTask: (task) => seen.push(task) });

    expect(outcome.failure).toBeUndefined();
    expect(outcome.result?.structuredContent).toEqual(REPORT);
    expect(outcome.result?.isError).toBeUndefined();
    const task = outcome.task;
    expect(task?.statuses).toEqual(['working', 'completed']);
    // How long the agent followed it is a measurement, not a property: only its shape is checked.
    expect(Number.isInteger(task?.elapsedMs) && (task?.elapsedMs ?? -1) >= 0).toBe(true);
    expect(task?.cancel).toBeUndefined();
    // The server suggests 20 ms; the agent's floor of 100 ms keeps it to a handful of polls.
    expect(task?.polls).toBeGreaterThanOrEqual(2);
    expect(task?.polls).toBeLessThanOrEqual(6);
    // Live: working with the server's status message first, completed last, when it says nothing more.
    expect(seen[0]).toMatchObject({ statuses: ['working'], statusMessage: 'Writing the sections' });
    expect(seen.at(-1)?.statuses).toEqual(['working', 'completed']);
    expect(task?.statusMessage).toBeUndefined();
    // Every tasks/get names the task in Mcp-Name, so a load balancer can route it.
    const gets = requestsFor(task?.id);
    expect(gets.length).toBe(task?.polls);
    expect(gets.every((request) => request.method === 'tasks/get' && request.mcpName === task?.id)).toBe(
      true,
    );
  });

  it('turns a failed task into the JSON-RPC error it carries', async () => {
    const outcome = await call('failing_job');
    expect(outcome.result).toBeUndefined();
    expect(outcome.failure).toEqual({ kind: 'jsonrpc', code: JOB_FAILED_CODE, message: JOB_FAILED_MESSAGE });
    expect(outcome.task?.statuses).toEqual(['working', 'failed']);
  });

  it('reports a task answer without a task id as a failure, not a hang', async () => {
    const outcome = await call('no_task_id');
    expect(outcome.failure?.kind).toBe('transport');
    expect(outcome.failure?.message).toMatch(/task the agent cannot follow.*taskId/);
    expect(outcome.task).toBeUndefined();
  });

  it('stops waiting for a task that stays working past its ttlMs, and cancels it', async () => {
    // A call timeout far beyond the test's own: only the task's ttlMs can have ended this wait.
    const outcome = await call('endless', {}, { timeoutMs: NEVER_MS });

    expect(outcome.failure?.kind).toBe('timeout');
    expect(outcome.failure?.message).toContain(`past its ttlMs (${ENDLESS_TTL_MS} ms)`);
    const id = outcome.task?.id ?? '';
    expect(outcome.task?.cancel).toEqual({ reason: 'timeout', acknowledged: true });
    expect(requestsFor(id).at(-1)).toEqual({ method: 'tasks/cancel', taskId: id, mcpName: id });
    expect(server.tasks.get(id)?.status).toBe('cancelled');
  });

  it('bounds a tasks/get that never answers by the call timeout', async () => {
    const outcome = await call('silent', {}, { timeoutMs: 300 });
    expect(outcome.failure).toEqual({
      kind: 'timeout',
      message: 'The server did not answer tasks/get within 300 ms.',
    });
    expect(outcome.task?.cancel?.reason).toBe('error');
  });

  it('refuses an answer about another task', async () => {
    const outcome = await call('other_id');
    expect(outcome.failure?.kind).toBe('transport');
    expect(outcome.failure?.message).toMatch(/identity mismatch/);
    expect(outcome.task?.cancel?.reason).toBe('error');
  });

  it('cancels a task that asks for input, which it cannot answer yet', async () => {
    const outcome = await call('asks_input');
    expect(outcome.failure?.message).toMatch(/asks for input/);
    expect(outcome.task?.statuses).toEqual(['working', 'input_required']);
    expect(server.tasks.get(outcome.task?.id ?? '')?.status).toBe('cancelled');
  });

  it('sends tasks/cancel when the question is cancelled, and returns at once', async () => {
    const controller = new AbortController();
    // The report and the call timeout both outlast the test's own timeout: only the abort can end it.
    const outcome = await call(
      'report',
      { ms: NEVER_MS },
      {
        timeoutMs: NEVER_MS,
        signal: controller.signal,
        onTask: () => controller.abort(new Error('the person cancelled')),
      },
    );
    expect(outcome.failure?.kind).toBe('aborted');
    const id = outcome.task?.id ?? '';
    expect(outcome.task?.cancel).toEqual({ reason: 'aborted', acknowledged: true });
    expect(requestsFor(id).map((request) => request.method)).toEqual(['tasks/cancel']);
    expect(server.tasks.get(id)?.status).toBe('cancelled');
  });

  it('gets a plain result from a server without the extension, though it declared it', async () => {
    const outcome = await hub.callTool(
      'plain',
      'get_temperature',
      { city: 'Oslo' },
      { timeoutMs: CALL_TIMEOUT_MS },
    );
    expect(outcome.task).toBeUndefined();
    expect(outcome.result?.structuredContent).toEqual({ city: 'Oslo', temperatureC: 4 });
    const sent = minimal.requests.filter((request) => request.method === 'tools/call').at(-1);
    const capabilities = sent?.meta?.['io.modelcontextprotocol/clientCapabilities'] as {
      extensions?: Record<string, unknown>;
    };
    expect(capabilities.extensions?.[TASKS_EXTENSION]).toEqual({});
  });
});

describe('pollInterval', () => {
  it('keeps the server suggestion within the bounds, and has a default', () => {
    expect(pollInterval(undefined)).toBe(DEFAULT_TASK_POLL_MS);
    expect(pollInterval(0)).toBe(MIN_TASK_POLL_MS);
    expect(pollInterval(750)).toBe(750);
    expect(pollInterval(3_600_000)).toBe(MAX_TASK_POLL_MS);
    expect(pollInterval(Number.NaN)).toBe(DEFAULT_TASK_POLL_MS);
  });
});
