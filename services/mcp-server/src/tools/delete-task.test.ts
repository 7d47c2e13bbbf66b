import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectInProcess } from '@mcp-workshop/mcp-host/in-process';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { validateToolResult } from '@mcp-workshop/shared';
import type { TodoStore } from '@mcp-workshop/task-store';
import { openTodoStore } from '@mcp-workshop/task-store';
import { type JsonRpcMessage, MCP_HEADERS, readMessages } from '@mcp-workshop/test-infra';
import {
  Client,
  type ClientCapabilities,
  type ElicitRequestParams,
  type ElicitResult,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/http.js';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';
import { createMcpServer } from '../test-support/server.js';
import { DECLINED_MESSAGE } from './delete-task.js';

const CONFIRM_QUESTION = 'Delete task 1 "Old chore"? This cannot be undone.';
const ELICIT_FORM: ClientCapabilities = { elicitation: { form: {} } };
type Answer = () => ElicitResult;
const accept: Answer = () => ({ action: 'accept', content: { confirm: true } });
const text = (result: { content: unknown }) => (result.content as Array<{ text: string }>)[0]?.text ?? '';

/** A 2025-era in-memory client that declares `capabilities` and answers every question with `answer`. */
async function connectAsking(store: TodoStore, capabilities: ClientCapabilities, answer: Answer) {
  const server = createMcpServer(testDeps({ todos: store }));
  const client = new Client({ name: 'elicit-test', version: '0' }, { capabilities });
  const asked: ElicitRequestParams[] = [];
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      return answer();
    });
  }
  return { ...(await connectInProcess(server, client)), asked };
}

describe('delete_task', () => {
  let dir: string;
  let store: TodoStore;
  let conn: Connected;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delete-task-'));
    store = openTodoStore({
      dataDir: dir,
      logger: createSilentLogger(),
      now: () => new Date('2026-07-28T12:00:00Z'),
    });
    await store.add('', 'Old chore');
    await store.add('', 'Keep me');
    conn = await connectInMemory(testDeps({ todos: store }));
  });
  afterEach(async () => {
    await conn.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = (args: Record<string, unknown>) =>
    conn.client.callTool({ name: 'delete_task', arguments: args });

  it('deletes the task and returns it as it was', async () => {
    const result = await call({ id: 1 });
    expect(validateToolResult(result).ok).toBe(true);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      task: {
        id: 1,
        title: 'Old chore',
        done: false,
        createdAt: '2026-07-28T12:00:00.000Z',
        completedAt: null,
      },
    });
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
    expect((await store.list('', 'all')).map((task) => task.title)).toEqual(['Keep me']);
  });

  it('answers "no task" and changes nothing when the same id is deleted twice', async () => {
    await call({ id: 1 });
    const again = await call({ id: 1 });
    expect(again.isError).toBe(true);
    expect(text(again)).toBe('No task with id 1. Call list_tasks to see the ids.');
    expect((await store.list('', 'all')).map((task) => task.title)).toEqual(['Keep me']);
  });

  it('tells the model how to find a real id when none matches', async () => {
    const result = await call({ id: 42 });
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
    expect(text(result)).toBe('No task with id 42. Call list_tasks to see the ids.');
  });

  it.each([
    ['missing', {}],
    ['a string', { id: '1' }],
    ['SQL', { id: '1; DROP TABLE tasks;--' }],
    ['null', { id: null }],
    ['zero', { id: 0 }],
    ['negative', { id: -2 }],
    ['a float', { id: 1.5 }],
    ['huge', { id: 1e20 }],
    ['an array', { id: [1, 2] }],
  ])('rejects an id that is %s with isError and deletes nothing', async (_label, args) => {
    const result = await call(args);
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
    expect(await store.list('', 'all')).toHaveLength(2);
  });
});

describe('delete_task confirmation (2025 era, elicitation/create)', () => {
  let dir: string;
  let store: TodoStore;
  let conn: Awaited<ReturnType<typeof connectAsking>> | undefined;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delete-task-elicit-'));
    store = openTodoStore({
      dataDir: dir,
      logger: createSilentLogger(),
      now: () => new Date('2026-07-28T12:00:00Z'),
    });
    await store.add('', 'Old chore');
    await store.add('', 'Keep me');
  });
  afterEach(async () => {
    await conn?.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const titles = async () => (await store.list('', 'all')).map((task) => task.title);

  it('asks with a boolean confirm field and deletes when the user confirms', async () => {
    conn = await connectAsking(store, ELICIT_FORM, accept);
    const result = await conn.client.callTool({ name: 'delete_task', arguments: { id: 1 } });
    expect(result.isError).toBe(false);
    expect(validateToolResult(result).ok).toBe(true);
    expect(await titles()).toEqual(['Keep me']);
    expect(conn.asked).toEqual([
      {
        mode: 'form',
        message: CONFIRM_QUESTION,
        requestedSchema: {
          type: 'object',
          properties: {
            confirm: {
              type: 'boolean',
              title: 'Yes, delete it',
              description: 'Tick to delete the task for good.',
            },
          },
          required: ['confirm'],
        },
      },
    ]);
  });

  it.each<[string, ElicitResult]>([
    ['declines', { action: 'decline' }],
    ['cancels', { action: 'cancel' }],
    ['accepts with the box unticked', { action: 'accept', content: { confirm: false } }],
  ])('deletes nothing and says so when the user %s', async (_label, reply) => {
    conn = await connectAsking(store, ELICIT_FORM, () => reply);
    const result = await conn.client.callTool({ name: 'delete_task', arguments: { id: 1 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(DECLINED_MESSAGE);
    expect(validateToolResult(result).ok).toBe(true);
    expect(await titles()).toEqual(['Old chore', 'Keep me']);
  });

  it('treats a bare elicitation capability as form mode', async () => {
    conn = await connectAsking(store, { elicitation: {} }, accept);
    await conn.client.callTool({ name: 'delete_task', arguments: { id: 1 } });
    expect(conn.asked).toHaveLength(1);
    expect(await titles()).toEqual(['Keep me']);
  });

  it('deletes without asking when the client has no form elicitation', async () => {
    conn = await connectAsking(store, { elicitation: { url: {} } }, accept);
    const result = await conn.client.callTool({ name: 'delete_task', arguments: { id: 1 } });
    expect(result.isError).toBe(false);
    expect(conn.asked).toEqual([]);
    expect(await titles()).toEqual(['Keep me']);
  });

  it('does not ask about a task that does not exist', async () => {
    conn = await connectAsking(store, ELICIT_FORM, accept);
    const result = await conn.client.callTool({ name: 'delete_task', arguments: { id: 42 } });
    expect(text(result)).toBe('No task with id 42. Call list_tasks to see the ids.');
    expect(conn.asked).toEqual([]);
  });

  it('deletes nothing when the question fails', async () => {
    conn = await connectAsking(store, ELICIT_FORM, () => {
      throw new Error('the host UI crashed');
    });
    const result = await conn.client.callTool({ name: 'delete_task', arguments: { id: 1 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Not deleted: the user's confirmation could not be obtained/);
    expect(await titles()).toEqual(['Old chore', 'Keep me']);
  });
});

describe('delete_task confirmation over HTTP (2026-07-28, input_required)', () => {
  let srv: TestServer;
  beforeEach(async () => {
    srv = await startTestServer();
    await srv.deps.todos.add('', 'Old chore');
    await srv.deps.todos.add('', 'Keep me');
  });
  afterEach(async () => srv.close());

  const titles = async () => (await srv.deps.todos.list('', 'all')).map((task) => task.title);

  it.each<[string, ElicitResult, string[]]>([
    ['deletes when the user confirms', { action: 'accept', content: { confirm: true } }, ['Keep me']],
    ['keeps the task when the user declines', { action: 'decline' }, ['Old chore', 'Keep me']],
  ])('%s (v2 client, auto negotiation)', async (_label, reply, left) => {
    const client = new Client(
      { name: 'mrtr-test', version: '0' },
      { versionNegotiation: { mode: 'auto' }, capabilities: ELICIT_FORM },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return reply;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl)));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const result = await client.callTool({ name: 'delete_task', arguments: { id: 1 } });
      expect(asked).toEqual([CONFIRM_QUESTION]);
      expect(result.isError).toBe(reply.action !== 'accept');
      if (reply.action !== 'accept') expect(text(result)).toBe(DECLINED_MESSAGE);
      expect(await titles()).toEqual(left);
    } finally {
      await client.close();
    }
  });

  /** One raw 2026-07-28 tools/call, with the envelope and the Mcp-* headers a modern client sends. */
  async function rawCall(
    id: number,
    capabilities: ClientCapabilities,
    extra: Record<string, unknown> = {},
  ): Promise<{ status: number; message: JsonRpcMessage | undefined }> {
    const response = await fetch(srv.mcpUrl, {
      method: 'POST',
      headers: {
        ...MCP_HEADERS,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'delete_task',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: 'delete_task',
          arguments: { id: 1 },
          ...extra,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      }),
    });
    const messages = await readMessages(response);
    return { status: response.status, message: messages.find((message) => message.id === id) };
  }

  it('returns input_required, then completes on a retry with the answer and the echoed state', async () => {
    const first = await rawCall(1, ELICIT_FORM);
    expect(first.status).toBe(200);
    const round = first.message?.result as {
      resultType: string;
      inputRequests: Record<string, { method: string; params: Record<string, unknown> }>;
      requestState: string;
    };
    expect(round.resultType).toBe('input_required');
    expect(round.inputRequests.confirm?.method).toBe('elicitation/create');
    expect(round.inputRequests.confirm?.params).toMatchObject({ mode: 'form', message: CONFIRM_QUESTION });
    expect(typeof round.requestState).toBe('string');
    expect(await titles()).toEqual(['Old chore', 'Keep me']);

    const retry = await rawCall(2, ELICIT_FORM, {
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      requestState: round.requestState,
    });
    expect(retry.message?.result).toMatchObject({
      resultType: 'complete',
      isError: false,
      structuredContent: { task: { id: 1, title: 'Old chore' } },
    });
    expect(await titles()).toEqual(['Keep me']);
  });

  it('asks again instead of deleting when the retry does not echo the state', async () => {
    const retry = await rawCall(3, ELICIT_FORM, {
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    expect(retry.message?.result?.resultType).toBe('input_required');
    expect(await titles()).toEqual(['Old chore', 'Keep me']);
  });

  it('keeps the task when the retry carries a decline', async () => {
    const first = await rawCall(4, ELICIT_FORM);
    const retry = await rawCall(5, ELICIT_FORM, {
      inputResponses: { confirm: { action: 'decline' } },
      requestState: first.message?.result?.requestState,
    });
    expect(retry.message?.result).toMatchObject({
      resultType: 'complete',
      isError: true,
      content: [{ type: 'text', text: DECLINED_MESSAGE }],
    });
    expect(await titles()).toEqual(['Old chore', 'Keep me']);
  });

  it('deletes directly, without requesting input, when the envelope declares no elicitation', async () => {
    const result = await rawCall(6, {});
    expect(result.status).toBe(200);
    expect(result.message?.error).toBeUndefined();
    expect(result.message?.result).toMatchObject({ resultType: 'complete', isError: false });
    expect(await titles()).toEqual(['Keep me']);
  });
});
