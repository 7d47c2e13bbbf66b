/**
 * @module protocol-suite/cases/utilities
 * Logging (through list_tasks, which logs at debug), progress and cancellation (through the
 * long-running `generate_report` tool).
 * Checklist §7 U1–U3 and §9 rows 48, 61, 62, 65, 66; addendum §1.8.
 */
import { expect } from 'vitest';
import { ENVELOPE_KEYS, type OpenStream, type ProtocolClient } from '../client.js';
import {
  expectResult,
  expectResultFor,
  expectRpcError,
  type ProtocolCase,
  requireTool,
  sampleArgs,
} from '../harness.js';
import { ALL, LEGACY, MODERN } from '../revisions.js';
import { type JsonRpcMessage, messagesOf, QUIET_PERIOD_MS } from '../sse.js';

type Obj = Record<string, unknown>;

/** The long-running tool that reports progress and can be cancelled. */
const REPORT_TOOL = 'generate_report';
/** A quick tool that logs at debug level, for the logging cases. */
const LOGGING_CALL = { name: 'list_tasks', arguments: {} };
/** Longest the suite waits for one report; it is meant to take seconds, not minutes. */
const REPORT_TIMEOUT_MS = 15_000;
/**
 * Optional tuning for generate_report, used only if its schema has these properties: a short report
 * for the progress case, and one for the cancellation cases that lasts about a second.
 */
const QUICK_REPORT = { steps: 3, delayMs: 50 };
const CANCELLABLE_REPORT = { steps: 5, delayMs: 200 };
/** How long a cancelled report is watched for a response: longer than a whole CANCELLABLE_REPORT. */
const CANCEL_WATCH_MS = 1_500;
/** Case time limit for the cases that run a report. */
const REPORT_CASE_TIMEOUT_MS = 30_000;

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Starts generate_report with its required arguments plus whichever `tuning` it accepts. */
async function startReport(client: ProtocolClient, tuning: Obj, meta: Obj = {}): Promise<OpenStream> {
  const tool = await requireTool(client, REPORT_TOOL);
  const schema = tool.inputSchema as Obj;
  const known = Object.keys((schema.properties ?? {}) as Obj);
  const args = {
    ...sampleArgs(schema),
    ...Object.fromEntries(Object.entries(tuning).filter(([k]) => known.includes(k))),
  };
  return client.stream(
    'tools/call',
    { name: REPORT_TOOL, arguments: args },
    { meta, timeoutMs: REPORT_TIMEOUT_MS + 5_000 },
  );
}

/** Runs a tool call to its response; returns every message of its stream, in order, and the response. */
async function runCall(
  open: OpenStream,
): Promise<{ messages: JsonRpcMessage[]; response: JsonRpcMessage | undefined }> {
  try {
    expect(open.status).toBe(200);
    const answered = (m: JsonRpcMessage) => m.id === open.id && ('result' in m || 'error' in m);
    const events = await open.live.until(answered, REPORT_TIMEOUT_MS);
    events.push(...(await open.live.drain(QUIET_PERIOD_MS)));
    const messages = messagesOf(events);
    return { messages, response: messages.find(answered) };
  } finally {
    await open.live.close();
  }
}

function logMessages(messages: JsonRpcMessage[]): JsonRpcMessage[] {
  return messages.filter((m) => m.method === 'notifications/message');
}

export const utilityCases: ProtocolCase[] = [
  {
    item: 'U2',
    source: '§9 #48',
    title:
      'generate_report with _meta.progressToken "p1" → progress carries "p1", increases, all before the response',
    revisions: ALL,
    timeoutMs: REPORT_CASE_TIMEOUT_MS,
    async run(ctx) {
      const { messages, response } = await runCall(
        await startReport(ctx.client, QUICK_REPORT, { progressToken: 'p1' }),
      );
      expect(response?.result, 'generate_report never answered').toBeDefined();
      const at = messages.indexOf(response as JsonRpcMessage);
      const progress = messages.filter((m) => m.method === 'notifications/progress');
      expect(progress.length, 'fewer than two progress notifications').toBeGreaterThanOrEqual(2);
      let last = Number.NEGATIVE_INFINITY;
      for (const note of progress) {
        expect(messages.indexOf(note), 'progress after the response').toBeLessThan(at);
        const params = note.params as Obj;
        expect(params.progressToken).toBe('p1');
        expect(typeof params.progress).toBe('number');
        expect(params.progress as number).toBeGreaterThan(last);
        last = params.progress as number;
        if ('total' in params) expect(params.progress as number).toBeLessThanOrEqual(params.total as number);
        if ('message' in params) expect(typeof params.message).toBe('string');
      }
    },
  },
  {
    item: 'U1',
    source: '§9 #61',
    title: 'logging/setLevel "info" → {}',
    revisions: LEGACY,
    async run(ctx) {
      const other = await ctx.connect();
      expect(expectResult(await other.request('logging/setLevel', { level: 'info' }))).toEqual({});
    },
  },
  {
    item: 'U1',
    source: '§9 #62',
    title: 'logging/setLevel "loud" → -32602',
    revisions: LEGACY,
    async run(ctx) {
      const other = await ctx.connect();
      expectRpcError(await other.request('logging/setLevel', { level: 'loud' }), [-32602]);
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.8',
    source: '§9 #62',
    title: 'an invalid io.modelcontextprotocol/logLevel ("loud") in the envelope → 400 and -32602',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request(
        'tools/list',
        {},
        { envelope: { [ENVELOPE_KEYS.logLevel]: 'loud' } },
      );
      expectRpcError(reply, [-32602], { status: 400 });
      await ctx.expectAlive();
    },
  },
  {
    item: 'U1',
    source: 'extra',
    title: 'after setLevel "debug", list_tasks logs notifications/message with a valid level and data',
    revisions: LEGACY,
    timeoutMs: REPORT_CASE_TIMEOUT_MS,
    async run(ctx) {
      const other = await ctx.connect();
      expectResult(await other.request('logging/setLevel', { level: 'debug' }));
      const { messages, response } = await runCall(await other.stream('tools/call', LOGGING_CALL));
      expect(response?.result).toBeDefined();
      const logs = logMessages(messages);
      expect(logs.length, 'no notifications/message at level debug').toBeGreaterThan(0);
      for (const log of logs) {
        expect(LEVELS).toContain(log.params?.level);
        expect(log.params && 'data' in log.params).toBe(true);
        if (log.params && 'logger' in log.params) expect(typeof log.params.logger).toBe('string');
      }
    },
  },
  {
    item: 'U1',
    source: 'extra',
    title: 'after setLevel "error", no notifications/message below error arrive',
    revisions: LEGACY,
    timeoutMs: REPORT_CASE_TIMEOUT_MS,
    async run(ctx) {
      const other = await ctx.connect();
      expectResult(await other.request('logging/setLevel', { level: 'error' }));
      const { messages, response } = await runCall(await other.stream('tools/call', LOGGING_CALL));
      expect(response?.result).toBeDefined();
      for (const log of logMessages(messages)) {
        expect(LEVELS.indexOf(String(log.params?.level))).toBeGreaterThanOrEqual(LEVELS.indexOf('error'));
      }
    },
  },
  {
    item: '§1.8',
    source: 'extra',
    title: 'with logLevel "debug" in the envelope, list_tasks’s log messages travel on its own stream',
    revisions: MODERN,
    timeoutMs: REPORT_CASE_TIMEOUT_MS,
    async run(ctx) {
      const { messages, response } = await runCall(
        await ctx.client.stream('tools/call', LOGGING_CALL, {
          envelope: { [ENVELOPE_KEYS.logLevel]: 'debug' },
        }),
      );
      expect(response?.result).toBeDefined();
      const logs = logMessages(messages);
      expect(logs.length, 'no notifications/message at level debug').toBeGreaterThan(0);
      for (const log of logs) expect(LEVELS).toContain(log.params?.level);
    },
  },
  {
    item: '§1.8',
    source: 'extra',
    title: 'without logLevel in the envelope, no notifications/message are sent',
    revisions: MODERN,
    timeoutMs: REPORT_CASE_TIMEOUT_MS,
    async run(ctx) {
      const { messages, response } = await runCall(await ctx.client.stream('tools/call', LOGGING_CALL));
      expect(response?.result).toBeDefined();
      expect(logMessages(messages)).toEqual([]);
    },
  },
  {
    item: 'U3',
    source: '§9 #65',
    title: 'notifications/cancelled for an in-flight generate_report → 202, and no response for that id',
    revisions: LEGACY,
    timeoutMs: REPORT_CASE_TIMEOUT_MS,
    async run(ctx) {
      const open = await startReport(ctx.client, CANCELLABLE_REPORT, { progressToken: 'cancel-me' });
      try {
        expect(open.status).toBe(200);
        const started = await open.live.until(
          (m) => m.method === 'notifications/progress',
          REPORT_TIMEOUT_MS,
        );
        expect(
          messagesOf(started).map((m) => m.method),
          'never in flight',
        ).toContain('notifications/progress');
        const cancel = await ctx.client.notify('notifications/cancelled', {
          requestId: open.id,
          reason: 'protocol suite',
        });
        expect(cancel.status).toBe(202);
        expect(cancel.text).toBe('');
        const after = messagesOf(await open.live.until((m) => m.id === open.id, CANCEL_WATCH_MS));
        expect(
          after.filter((m) => m.id === open.id),
          'the cancelled request was answered',
        ).toEqual([]);
      } finally {
        await open.live.close();
      }
      await ctx.expectAlive();
    },
  },
  {
    item: 'U3',
    source: '§9 #65',
    title: 'closing the SSE stream of an in-flight generate_report cancels it; the server keeps serving',
    revisions: MODERN,
    timeoutMs: REPORT_CASE_TIMEOUT_MS,
    async run(ctx) {
      const open = await startReport(ctx.client, CANCELLABLE_REPORT, { progressToken: 'cancel-me' });
      expect(open.status).toBe(200);
      const started = await open.live.until((m) => m.method === 'notifications/progress', REPORT_TIMEOUT_MS);
      expect(
        messagesOf(started).map((m) => m.method),
        'never in flight',
      ).toContain('notifications/progress');
      await open.live.close();
      await ctx.expectAlive();
      expectResultFor(ctx.rev, await ctx.client.request('tools/list'));
    },
  },
  {
    item: 'U3',
    source: '§9 #66',
    title: 'notifications/cancelled for an unknown request id → 202, ignored',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.notify('notifications/cancelled', {
        requestId: 'never-sent',
        reason: 'test',
      });
      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
      await ctx.expectAlive();
    },
  },
];
