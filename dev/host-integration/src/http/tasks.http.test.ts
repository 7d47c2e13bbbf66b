/**
 * MCP Tasks (SEP-2663) on the catalogue, over real HTTP: `generate_report` is a task for a
 * 2026-07-28 request that declares `io.modelcontextprotocol/tasks`, and the plain report for every
 * other client (2026-07-28 without the extension, a 2025 session). The task methods, their headers
 * and their errors; a cancel that stops the work; and, with sign-in on, tasks bound to their owner:
 * another user's id answers exactly like an unknown one, for get, update and cancel.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { discoverIssuer } from '@mcp-workshop/mcp-host';
import {
  EraClient,
  type ListenStream,
  openListenStream,
  postModern,
  readMessages,
  startTestIssuer,
  TASKS_CAPABILITIES,
  type TestIssuer,
} from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';
import { TASKS_READ, TASKS_WRITE } from '../test-support/workshop.js';

const WAIT_MS = 10_000;
const REPORT = { name: 'generate_report', arguments: { topic: 'cities', steps: 3, delayMs: 20 } };

interface Answer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

async function answerOf(response: Response): Promise<Answer> {
  const [message] = await readMessages(response);
  return {
    status: response.status,
    ...(message?.result !== undefined && { result: message.result as Record<string, unknown> }),
    ...(message?.error !== undefined && { error: message.error as Answer['error'] & object }),
  };
}

function modern(url: string, method: string, params: Record<string, unknown>, tasks = true, headers = {}) {
  return postModern(url, method, params, { capabilities: tasks ? TASKS_CAPABILITIES : {}, headers }).then(
    answerOf,
  );
}

async function untilStatus(url: string, taskId: string, done: (status: string) => boolean) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const { result, error } = await modern(url, 'tasks/get', { taskId });
    if (error) throw new Error(`tasks/get failed: ${JSON.stringify(error)}`);
    if (result && done(String(result.status))) return result;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${String(result?.status)}`);
    await sleep(25);
  }
}

/** The task status notifications a listen stream carried so far, without their `_meta`. */
function taskNotes(stream: ListenStream): Array<Record<string, unknown>> {
  return stream
    .messages()
    .filter((message) => message.method === 'notifications/tasks')
    .map(({ params }) => {
      const { _meta, ...task } = params ?? {};
      return task;
    });
}

describe('generate_report as a task, sign-in off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  it('declares the extension in server/discover', async () => {
    const { result } = await modern(server.mcpUrl, 'server/discover', {}, false);
    const capabilities = (result?.capabilities ?? {}) as { extensions?: object };
    expect(capabilities.extensions).toHaveProperty(['io.modelcontextprotocol/tasks']);
  });

  it('answers a declaring 2026-07-28 client with a task, and tasks/get with the whole report once completed', async () => {
    const created = await modern(server.mcpUrl, 'tools/call', REPORT);
    expect(created.status).toBe(200);
    const task = created.result ?? {};
    expect(task).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 3_600_000,
      pollIntervalMs: 500,
    });
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Never the old names, never request state, never a tool result's fields.
    for (const key of ['ttl', 'pollInterval', 'requestState', 'content', 'structuredContent']) {
      expect(task).not.toHaveProperty([key]);
    }
    const done = await untilStatus(server.mcpUrl, String(task.taskId), (status) => status === 'completed');
    expect(done.resultType).toBe('complete');
    const report = (done.result as { structuredContent: { sections: unknown[]; topic: string } })
      .structuredContent;
    expect(report.topic).toBe('cities');
    expect(report.sections).toHaveLength(3);
    expect((done.result as { isError?: boolean }).isError).not.toBe(true);
  });

  it('answers a 2026-07-28 client without the extension, and a 2025 session, with the report itself', async () => {
    const plain = await modern(server.mcpUrl, 'tools/call', REPORT, false);
    expect(plain.result).toMatchObject({ resultType: 'complete', structuredContent: { topic: 'cities' } });
    expect(plain.result).not.toHaveProperty(['taskId']);
    const session = await new EraClient('2025 session', server.mcpUrl, '').send('tools/call', REPORT);
    expect(session.text).toContain('"sections"');
    expect(session.text).not.toContain('taskId');
  });

  it('refuses the task methods to a request that did not declare the extension (-32021)', async () => {
    const { result } = await modern(server.mcpUrl, 'tools/call', REPORT);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const answer = await modern(server.mcpUrl, method, { taskId: result?.taskId }, false);
      expect(answer.error?.code, method).toBe(-32021);
      expect(answer.error?.data).toEqual({
        requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      });
    }
  });

  it('answers unknown, malformed and hostile ids with -32602, and the removed methods with -32601', async () => {
    for (const taskId of ['no-such-task', "' OR 1=1 --", '../../etc/passwd', 'ünïcødé', 'x'.repeat(256)]) {
      expect((await modern(server.mcpUrl, 'tasks/get', { taskId })).error?.code, taskId).toBe(-32602);
    }
    for (const params of [
      {},
      { taskId: 42 },
      { taskId: null },
      { taskId: 'x'.repeat(257) },
      { taskId: '' },
    ]) {
      const answer = await modern(server.mcpUrl, 'tasks/cancel', params);
      expect(answer.error?.code, JSON.stringify(params).slice(0, 40)).toBeLessThan(-32000);
    }
    for (const method of ['tasks/list', 'tasks/result']) {
      expect((await modern(server.mcpUrl, method, { taskId: 'x' })).error?.code).toBe(-32601);
    }
  });

  it('refuses an Mcp-Name header that disagrees with the taskId (-32020, HTTP 400)', async () => {
    const { result } = await modern(server.mcpUrl, 'tools/call', REPORT);
    const answer = await modern(server.mcpUrl, 'tasks/get', { taskId: result?.taskId }, true, {
      'mcp-name': 'some-other-task',
    });
    expect(answer.status).toBe(400);
    expect(answer.error?.code).toBe(-32020);
  });

  it('acks tasks/update with resultType complete, ignoring answers nobody asked for, and refuses a flood of them', async () => {
    const { result } = await modern(server.mcpUrl, 'tools/call', REPORT);
    const ack = await modern(server.mcpUrl, 'tasks/update', {
      taskId: result?.taskId,
      inputResponses: { unknown: { action: 'accept' } },
    });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect(ack.result).not.toHaveProperty(['status']);
    const flood = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, {}]));
    const refused = await modern(server.mcpUrl, 'tasks/update', {
      taskId: result?.taskId,
      inputResponses: flood,
    });
    expect(refused.error?.code).toBe(-32602);
  });

  it('sends notifications/tasks on a listen stream that names the task, each as tasks/get answers it', async () => {
    // The stream opens after the call, and hears only what changes after that: the report runs
    // long enough (1.8 s) for that open on a loaded machine, and ends well inside LISTEN_WAIT_MS.
    const { result } = await modern(server.mcpUrl, 'tools/call', {
      name: 'generate_report',
      arguments: { topic: 'cities', steps: 3, delayMs: 600 },
    });
    const taskId = String(result?.taskId);
    const named = await openListenStream(server.mcpUrl, { taskIds: [taskId] });
    const other = await openListenStream(server.mcpUrl, { taskIds: ['AAAAAAAAAAAAAAAAAAAAAA'] });
    try {
      expect(named.status).toBe(200);
      expect(await named.waitFor('"status":"completed"')).toBe(true);
      const [ack] = named.messages();
      expect(ack).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { taskIds: [taskId] } },
      });
      const notes = taskNotes(named);
      // Working with each section's message, then completed, in that order.
      expect(notes.map((note) => note.status)).toEqual([
        ...notes.slice(0, -1).map(() => 'working'),
        'completed',
      ]);
      expect(notes.some((note) => String(note.statusMessage).startsWith('Section '))).toBe(true);
      const last = notes.at(-1) as Record<string, unknown>;
      const {
        resultType: _resultType,
        _meta,
        ...gotten
      } = (await modern(server.mcpUrl, 'tasks/get', { taskId })).result as Record<string, unknown>;
      expect(last).toEqual(gotten);
      // A stream that named another task heard nothing of this one.
      expect(taskNotes(other)).toEqual([]);
    } finally {
      await named.close();
      await other.close();
    }
  });

  it('refuses malformed taskIds in a listen filter with -32602, and takes many ids without harm', async () => {
    for (const taskIds of ['one-id', [42], [null], { id: 'x' }]) {
      const stream = await openListenStream(server.mcpUrl, { taskIds });
      await stream.waitFor('-32602');
      expect(stream.messages()[0]?.error?.code, JSON.stringify(taskIds)).toBe(-32602);
      await stream.close();
    }
    // Ids nobody has, hostile ones and 5,000 of them are acknowledged like any: none names a task of this caller.
    const many = ["' OR 1=1 --", '../../etc/passwd', ...Array.from({ length: 5_000 }, (_, i) => `id-${i}`)];
    const stream = await openListenStream(server.mcpUrl, { taskIds: many });
    try {
      expect(await stream.waitFor('acknowledged')).toBe(true);
      expect(stream.messages()[0]?.params).toMatchObject({ notifications: { taskIds: many } });
      expect((await modern(server.mcpUrl, 'tools/call', REPORT)).result?.resultType).toBe('task');
    } finally {
      await stream.close();
    }
  });

  it('stops a cancelled report: it ends cancelled and makes no further progress', async () => {
    const slow = { name: 'generate_report', arguments: { topic: 'cities', steps: 20, delayMs: 200 } };
    const { result } = await modern(server.mcpUrl, 'tools/call', slow);
    const taskId = String(result?.taskId);
    const working = await untilStatus(server.mcpUrl, taskId, () => true);
    expect(working.status).toBe('working');
    await sleep(450);
    const ack = await modern(server.mcpUrl, 'tasks/cancel', { taskId });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    const cancelled = await untilStatus(server.mcpUrl, taskId, (status) => status === 'cancelled');
    await sleep(700);
    const later = await untilStatus(server.mcpUrl, taskId, () => true);
    expect(later.status).toBe('cancelled');
    expect(later.lastUpdatedAt).toBe(cancelled.lastUpdatedAt);
    expect(later).not.toHaveProperty(['result']);
    // A second cancel of a finished task is acked the same way.
    expect((await modern(server.mcpUrl, 'tasks/cancel', { taskId })).result).toMatchObject({
      resultType: 'complete',
    });
  });
});

describe('tasks are bound to their owner, sign-in on', () => {
  const RESOURCE = 'http://127.0.0.1:3000/mcp';
  let issuer: TestIssuer;
  let server: TestServer;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    server = await startTestServer({
      auth: { issuer: await discoverIssuer(issuer.issuer), resource: RESOURCE },
    });
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
  });

  const tokenFor = (subject: string, scopes = [TASKS_READ, TASKS_WRITE]) =>
    issuer.token({ subject, resource: RESOURCE, scopes, clientId: 'test-client' });
  const as = (token: string, method: string, params: Record<string, unknown>) =>
    postModern(server.mcpUrl, method, params, {
      capabilities: TASKS_CAPABILITIES,
      headers: { authorization: `Bearer ${token}` },
    }).then(answerOf);

  it("answers another user's task id exactly like an unknown one, for get, update and cancel", async () => {
    const alice = await tokenFor('alice');
    const mallory = await tokenFor('mallory');
    // Still working after Mallory's six requests on a loaded machine: alice cancels it at the end.
    const slow = { name: 'generate_report', arguments: { topic: 'cities', steps: 10, delayMs: 1_000 } };
    const { result } = await as(alice, 'tools/call', slow);
    const taskId = String(result?.taskId);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const theirs = await as(mallory, method, { taskId });
      const unknown = await as(mallory, method, { taskId: 'AAAAAAAAAAAAAAAAAAAAAA' });
      expect(theirs.error?.code, method).toBe(-32602);
      expect(theirs.error, method).toEqual(unknown.error);
      expect(theirs.status).toBe(unknown.status);
    }
    // Mallory's cancel changed nothing: alice's task still works, and alice may cancel it.
    expect((await as(alice, 'tasks/get', { taskId })).result?.status).toBe('working');
    expect((await as(alice, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
  });

  it("sends a task's status only to its owner's listen streams, never to another user's that names it", async () => {
    const alice = await tokenFor('alice');
    const mallory = await tokenFor('mallory');
    // Long enough (1.8 s) for both streams to open after the call on a loaded machine.
    const { result } = await as(alice, 'tools/call', {
      name: 'generate_report',
      arguments: { topic: 'cities', steps: 2, delayMs: 900 },
    });
    const taskId = String(result?.taskId);
    const hers = await openListenStream(
      server.mcpUrl,
      { taskIds: [taskId] },
      { authorization: `Bearer ${alice}` },
    );
    const his = await openListenStream(
      server.mcpUrl,
      { taskIds: [taskId] },
      { authorization: `Bearer ${mallory}` },
    );
    try {
      expect(await hers.waitFor('"status":"completed"')).toBe(true);
      // His stream was acknowledged like any (an id tells nobody whose it is), and heard nothing.
      expect(his.messages()[0]).toMatchObject({ params: { notifications: { taskIds: [taskId] } } });
      expect(taskNotes(his)).toEqual([]);
      expect(taskNotes(hers).at(-1)).toMatchObject({ taskId, status: 'completed' });
    } finally {
      await hers.close();
      await his.close();
    }
  });

  it('keeps the scopes a task was created with: a "tasks" report without tasks:read is an isError result', async () => {
    const weatherOnly = await tokenFor('carol', []);
    const { result } = await as(weatherOnly, 'tools/call', {
      name: 'generate_report',
      arguments: { topic: 'tasks', steps: 1, delayMs: 0 },
    });
    expect(result?.resultType).toBe('task');
    const deadline = Date.now() + WAIT_MS;
    let done: Record<string, unknown> | undefined;
    while (Date.now() < deadline) {
      done = (await as(weatherOnly, 'tasks/get', { taskId: result?.taskId })).result;
      if (done?.status === 'completed') break;
      await sleep(25);
    }
    expect(done?.status).toBe('completed');
    expect(done?.result).toMatchObject({ isError: true });
    expect(JSON.stringify(done?.result)).toContain('tasks:read');
  });
});
