import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSilentLogger, type Logger } from '@mcp-workshop/mcp-host/logger';
import { validateToolResult } from '@mcp-workshop/shared';
import type { TodoStore } from '@mcp-workshop/task-store';
import { openTodoStore } from '@mcp-workshop/task-store';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/http.js';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';

/**
 * 20 sections of 2 s each, the longest the tool allows: 40 s, twice the test's own timeout, so a
 * cancelled call can only have stopped because of the cancel.
 */
const SLOW = { steps: 20, delayMs: 2_000 };
/** A safety net for the cancel's log line, well inside the test's timeout and the report's length. */
const CANCEL_SEEN_MS = 15_000;

type Progress = { progress: number; total?: number; message?: string };

/** A pino logger whose lines a test can read. */
function capturingLogger(): { logger: Logger; lines: Array<{ msg: string }> } {
  const lines: Array<{ msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

async function waitFor<T>(find: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined || Date.now() > until) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('generate_report', () => {
  let dir: string;
  let store: TodoStore;
  let conn: Connected;
  let captured: ReturnType<typeof capturingLogger>;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'generate-report-'));
    let clock = new Date('2026-07-26T09:00:00Z');
    store = openTodoStore({ dataDir: dir, logger: createSilentLogger(), now: () => clock });
    await store.add('', 'Secret plan A');
    await store.add('', 'Secret plan B');
    clock = new Date('2026-07-28T08:00:00Z');
    await store.add('', 'Secret plan C');
    await store.complete('', 1);
    captured = capturingLogger();
    conn = await connectInMemory(testDeps({ todos: store, logger: captured.logger }));
  });
  afterEach(async () => {
    await conn.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = (args: Record<string, unknown>, onprogress?: (update: Progress) => void) =>
    conn.client.callTool({ name: 'generate_report', arguments: args }, onprogress ? { onprogress } : {});

  it('reports task counts per day, ending today, without task titles', async () => {
    const result = await call({ topic: 'tasks', steps: 3, delayMs: 0 });
    expect(validateToolResult(result).ok).toBe(true);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      topic: 'tasks',
      sections: [
        {
          title: '2026-07-26',
          text: '2026-07-26: 2 task(s) added, 0 completed.',
          figures: { added: 2, completed: 0 },
        },
        {
          title: '2026-07-27',
          text: '2026-07-27: 0 task(s) added, 0 completed.',
          figures: { added: 0, completed: 0 },
        },
        {
          title: '2026-07-28',
          text: '2026-07-28: 1 task(s) added, 1 completed.',
          figures: { added: 1, completed: 1 },
        },
      ],
      summary: '3 task(s) on the list: 2 open, 1 done; 3 day(s) ending 2026-07-28 (UTC).',
      generatedAt: '2026-07-28T12:00:00.000Z',
    });
    expect(JSON.stringify(result)).not.toMatch(/Secret/);
  });

  it.each([
    ['weather', 4, 'Oslo, Norway'],
    ['cities', 2, undefined],
  ])('builds one section per step for %s', async (topic, steps, firstTitle) => {
    const result = await call({ topic, steps, delayMs: 0 });
    expect(validateToolResult(result).ok).toBe(true);
    const report = result.structuredContent as { sections: Array<{ title: string }> };
    expect(report.sections).toHaveLength(steps);
    if (firstTitle) expect(report.sections[0]?.title).toBe(firstTitle);
  });

  it('sends increasing progress with total and a message per step, all before the result', async () => {
    const events: Array<Progress | 'result'> = [];
    const result = await call({ topic: 'weather', steps: 4, delayMs: 5 }, (update) => events.push(update));
    events.push('result');
    expect(result.isError).toBe(false);
    expect(events).toEqual([
      { progress: 1, total: 4, message: 'Section 1 of 4: Oslo, Norway' },
      { progress: 2, total: 4, message: 'Section 2 of 4: Bergen, Norway' },
      { progress: 3, total: 4, message: 'Section 3 of 4: Trondheim, Norway' },
      { progress: 4, total: 4, message: 'Section 4 of 4: Tokyo, Japan' },
      'result',
    ]);
  });

  it('sends no progress after the result, and none when the client did not ask', async () => {
    const errors: Error[] = [];
    conn.client.onerror = (error) => errors.push(error);
    const updates: Progress[] = [];
    await call({ topic: 'cities', steps: 3, delayMs: 20 }, (update) => updates.push(update));
    await pause(100);
    expect(updates.map((update) => update.progress)).toEqual([1, 2, 3]);
    // A late notification would reach the client with an unknown token and surface here.
    expect(errors).toEqual([]);

    const raw: unknown[] = [];
    conn.client.setNotificationHandler('notifications/progress', (notification) => {
      raw.push(notification);
    });
    const quiet = await call({ topic: 'cities', steps: 3, delayMs: 0 });
    expect(quiet.isError).toBe(false);
    expect(raw).toEqual([]);
  });

  it('stops, and sends nothing more, when the client cancels', async () => {
    const errors: Error[] = [];
    conn.client.onerror = (error) => errors.push(error);
    const controller = new AbortController();
    const updates: Progress[] = [];
    const pending = conn.client.callTool(
      { name: 'generate_report', arguments: { topic: 'weather', ...SLOW } },
      {
        signal: controller.signal,
        onprogress: (update) => {
          updates.push(update);
          if (update.progress === 1) controller.abort('the user clicked Stop');
        },
      },
    );
    await expect(pending).rejects.toThrow(/the user clicked Stop/);
    const cancelled = await waitFor(
      () => captured.lines.find((line) => line.msg === 'tool call cancelled'),
      CANCEL_SEEN_MS,
    );
    expect(cancelled).toBeDefined();
    // Past the next section's delay: a tool that had not stopped would have reported it by now.
    await pause(SLOW.delayMs + 500);
    expect(updates.map((update) => update.progress)).toEqual([1]);
    // The SDK sends no response for a cancelled request; a late one would surface here as an unknown id.
    expect(errors).toEqual([]);
    // Cancellation is not a failure: nothing was logged as an error.
    expect(captured.lines.filter((line) => line.msg === 'tool threw an unexpected error')).toEqual([]);
  });

  it.each([
    ['an unknown topic', { topic: 'stocks' }],
    ['zero steps', { topic: 'tasks', steps: 0 }],
    ['too many steps', { topic: 'tasks', steps: 21 }],
    ['a fractional step count', { topic: 'tasks', steps: 2.5 }],
    ['a negative delay', { topic: 'tasks', delayMs: -1 }],
    ['a delay over the cap', { topic: 'tasks', delayMs: 2001 }],
  ])('rejects %s with isError', async (_label, args) => {
    const result = await call(args);
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
  });
});

describe('generate_report over HTTP (2026-07-28)', () => {
  let srv: TestServer;
  let captured: ReturnType<typeof capturingLogger>;
  let client: Client;

  beforeEach(async () => {
    captured = capturingLogger();
    srv = await startTestServer({ logger: captured.logger });
    client = new Client({ name: 'report-test', version: '0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl)));
    expect(client.getProtocolEra()).toBe('modern');
  });
  afterEach(async () => {
    await client.close();
    await srv.close();
  });

  it('streams progress on the request before the result', async () => {
    const events: Array<number | 'result'> = [];
    const result = await client.callTool(
      { name: 'generate_report', arguments: { topic: 'cities', steps: 3, delayMs: 10 } },
      { onprogress: (update) => events.push(update.progress) },
    );
    events.push('result');
    expect(result.isError).toBe(false);
    expect(events).toEqual([1, 2, 3, 'result']);
  });

  it('stops when the client cancels the request', async () => {
    const controller = new AbortController();
    const pending = client.callTool(
      { name: 'generate_report', arguments: { topic: 'cities', ...SLOW } },
      {
        signal: controller.signal,
        onprogress: (update) => {
          if (update.progress === 1) controller.abort('stop');
        },
      },
    );
    await expect(pending).rejects.toThrow();
    const cancelled = await waitFor(
      () => captured.lines.find((line) => line.msg === 'tool call cancelled'),
      CANCEL_SEEN_MS,
    );
    expect(cancelled).toBeDefined();
  });
});
