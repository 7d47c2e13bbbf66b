/**
 * A task outlives its process: the built server, as `node dist/index.js` runs it on SQLite, is
 * killed (SIGKILL, no clean stop) in the middle of a `generate_report` task, started again on the
 * same DATA_DIR, and the task resumes from its last finished section and ends `completed` with the
 * whole report. Needs `dist/` (turbo builds it before `test`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort, postModern, readMessages, TASKS_CAPABILITIES } from '@mcp-workshop/test-infra';
import { afterEach, beforeAll, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const WAIT_MS = 20_000;
const STEPS = 8;
const DELAY_MS = 400;

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

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  children.push(child);
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error('the server did not come up');
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
  const port = await freePort();
  const first = await startServer(port);
  const created = await call(port, 'tools/call', {
    name: 'generate_report',
    arguments: { topic: 'cities', steps: STEPS, delayMs: DELAY_MS },
  });
  const taskId = String(created.taskId);
  expect(created.status).toBe('working');

  // Wait for a few sections, then kill the process without letting it stop cleanly.
  let before = 0;
  const deadline = Date.now() + WAIT_MS;
  while (before < 3 && Date.now() < deadline) {
    before = sectionOf(await call(port, 'tasks/get', { taskId }));
    await sleep(50);
  }
  expect(before).toBeGreaterThanOrEqual(3);
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));

  await startServer(port);
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
  const port = await freePort();
  const first = await startServer(port);
  const created = await call(port, 'tools/call', {
    name: 'generate_report',
    arguments: { topic: 'cities', steps: 4, delayMs: 500 },
  });
  const taskId = String(created.taskId);
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  // Restarted with no request at all: the runtime must get the catalogue's tools defined itself
  // (it waits 10 s for a definition before it gives a task up as no longer served).
  await startServer(port);
  await sleep(11_000);
  const task = await call(port, 'tasks/get', { taskId });
  expect(task.status).toBe('completed');
  expect(
    (task.result as { structuredContent: { sections: unknown[] } }).structuredContent.sections,
  ).toHaveLength(4);
}, 60_000);
