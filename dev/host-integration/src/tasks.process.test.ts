/**
 * A task outlives its process: the built server, as `node dist/index.js` runs it on SQLite, is
 * killed (SIGKILL, no clean stop) in the middle of a `generate_report` task, started again on the
 * same DATA_DIR, and the task resumes from its last finished section and ends `completed` with the
 * whole report. Needs the catalogue's `dist/` (turbo builds it before `test`).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  postModern,
  readMessages,
  startAnnouncingServer,
  TASKS_CAPABILITIES,
} from '@mcp-workshop/test-infra';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { WORKSHOP_ENTRY as ENTRY } from './test-support/built-server.js';

const WAIT_MS = 20_000;
const STEPS = 8;
/** Long enough that the task is still working when a restarted server on a loaded machine is first asked. */
const DELAY_MS = 1_000;

let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  if (!existsSync(ENTRY))
    throw new Error(`${ENTRY} is missing: run "pnpm build" (pnpm test does it for you).`);
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the built server on a port the OS picks; resolves with that port once it says it listens. */
async function startServer(): Promise<{ child: ChildProcess; port: number }> {
  const { child, mcpUrl } = await startAnnouncingServer({
    entry: ENTRY,
    env: { DATA_DIR: dataDir },
    timeoutMs: WAIT_MS,
    name: 'the server',
  });
  children.push(child);
  return { child, port: Number(new URL(mcpUrl).port) };
}

async function call(port: number, method: string, params: Record<string, unknown>) {
  const response = await postModern(`http://127.0.0.1:${port}/mcp`, method, params, {
    capabilities: TASKS_CAPABILITIES,
  });
  const [message] = await readMessages(response);
  if (message?.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
  return message?.result as Record<string, unknown>;
}

/** "Section 3 of 8: …" → 3; 0 before the first section. */
const sectionOf = (task: Record<string, unknown>) =>
  Number(/^Section (\d+) of/.exec(String(task.statusMessage ?? ''))?.[1] ?? 0);

it('resumes a report killed mid-way from its last finished section, after a restart on the same DATA_DIR', async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mcp-workshop-task-restart-'));
  const first = await startServer();
  const created = await call(first.port, 'tools/call', {
    name: 'generate_report',
    arguments: { topic: 'cities', steps: STEPS, delayMs: DELAY_MS },
  });
  const taskId = String(created.taskId);
  expect(created.status).toBe('working');

  // Wait for a few sections, then kill the process without letting it stop cleanly.
  let before = 0;
  const deadline = Date.now() + WAIT_MS;
  while (before < 3 && Date.now() < deadline) {
    before = sectionOf(await call(first.port, 'tasks/get', { taskId }));
    await sleep(50);
  }
  expect(before).toBeGreaterThanOrEqual(3);
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));

  const { port } = await startServer();
  // Right after the restart the task is still there, still working, and never back before `before`.
  const seen: number[] = [];
  let task = await call(port, 'tasks/get', { taskId });
  expect(task.status).toBe('working');
  while (task.status === 'working' && Date.now() < deadline + WAIT_MS) {
    const section = sectionOf(task);
    if (section > 0) seen.push(section);
    await sleep(50);
    task = await call(port, 'tasks/get', { taskId });
  }
  expect(task.status).toBe('completed');
  expect(seen.length).toBeGreaterThan(0);
  expect(Math.min(...seen)).toBeGreaterThanOrEqual(before);
  const report = (task.result as { structuredContent: { sections: Array<{ title: string }> } })
    .structuredContent;
  expect(report.sections).toHaveLength(STEPS);
  expect(new Set(report.sections.map((section) => section.title)).size).toBe(STEPS);
}, 60_000);

it('resumes the task even when nobody asks the restarted server anything for a while', async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mcp-workshop-task-quiet-'));
  const first = await startServer();
  const created = await call(first.port, 'tools/call', {
    name: 'generate_report',
    arguments: { topic: 'cities', steps: 4, delayMs: 500 },
  });
  const taskId = String(created.taskId);
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  // Restarted with no request at all: the runtime must get the catalogue's tools defined itself
  // (it waits 10 s for a definition before it gives a task up as no longer served).
  const { port } = await startServer();
  await sleep(11_000);
  // Then asked until it ends: a kill mid-statement leaves the database locked for 10 s
  // (sqlite-lock.ts), which delays the resume; the restarted server serves meanwhile.
  let task = await call(port, 'tasks/get', { taskId });
  for (const deadline = Date.now() + WAIT_MS; task.status === 'working' && Date.now() < deadline; ) {
    await sleep(100);
    task = await call(port, 'tasks/get', { taskId });
  }
  expect(task.status).toBe('completed');
  expect(
    (task.result as { structuredContent: { sections: unknown[] } }).structuredContent.sections,
  ).toHaveLength(4);
}, 60_000);

it("keeps serving when restarted onto a crashed writer's fresh lock, and resumes the task once it is stale", async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mcp-workshop-task-locked-'));
  const first = await startServer();
  const created = await call(first.port, 'tools/call', {
    name: 'generate_report',
    arguments: { topic: 'cities', steps: 2, delayMs: 300 },
  });
  const taskId = String(created.taskId);
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  // What a kill in the middle of a statement leaves: the lock directory, as fresh as the kill.
  const lock = join(dataDir, 'tasks.db.lock');
  if (!existsSync(lock)) mkdirSync(lock);
  const now = new Date();
  utimesSync(lock, now, now);

  const second = await startServer();
  let exit: unknown;
  second.child.once('exit', (code, signal) => {
    exit = { code, signal };
  });
  // Past the store's first open (half a second after serving): the server is still there, and
  // answers what needs no database.
  await sleep(2_000);
  expect(exit).toBeUndefined();
  expect((await call(second.port, 'tools/list', {})).tools).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: 'generate_report' })]),
  );
  // The lock goes stale 10 s after the kill; then the task resumes and ends.
  let task: Record<string, unknown> | undefined;
  for (const deadline = Date.now() + 3 * WAIT_MS; task?.status !== 'completed' && Date.now() < deadline; ) {
    task = await call(second.port, 'tasks/get', { taskId }).catch(() => undefined);
    await sleep(200);
  }
  expect(task?.status).toBe('completed');
  expect(exit).toBeUndefined();
}, 90_000);
