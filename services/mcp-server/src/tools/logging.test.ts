/**
 * MCP logging (`notifications/message`) from tools: the `log` helper `defineTool` hands every
 * tool, and the levels the example tools log at. Partner: `define-tool.ts`.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectInProcess } from '@mcp-workshop/mcp-host/in-process';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { ToolError } from '@mcp-workshop/shared';
import type { TodoStore } from '@mcp-workshop/task-store';
import { openTodoStore } from '@mcp-workshop/task-store';
import {
  Client,
  type LoggingMessageNotificationParams,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer } from '../../test/support/http.js';
import { defineTool } from '../deps.js';
import { type Connected, connectInMemory, registerContext, testDeps } from '../test-support/in-memory.js';
import { createOfflineWeather } from '../weather/offline.js';

const probe = defineTool({
  name: 'probe',
  title: 'Probe',
  description: 'Logs, or fails, on request.',
  input: z.object({ mode: z.enum(['log', 'bug', 'tool-error']) }),
  output: z.object({ done: z.boolean() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ mode }, { log }) {
    await log('debug', 'step one', { id: 7 });
    await log('info', 'step two');
    await log('warning', 'step three');
    if (mode === 'bug') throw new Error('secret internal detail');
    if (mode === 'tool-error') throw new ToolError('Bad input "private text".');
    return {
      content: [{ type: 'text', text: '{"done":true}' }],
      structuredContent: { done: true },
      isError: false,
    };
  },
});

/** A client on a bare server holding only `probe`; `logging` says whether the server declares the capability. */
async function connectProbe(logging: boolean) {
  const server = new McpServer(
    { name: 'probe-server', version: '0' },
    { capabilities: logging ? { logging: {} } : {} },
  );
  probe.register(server, registerContext(testDeps()));
  return connectInProcess(server, new Client({ name: 'probe-client', version: '0' }));
}

function collectLogs(client: Client): LoggingMessageNotificationParams[] {
  const logs: LoggingMessageNotificationParams[] = [];
  client.setNotificationHandler('notifications/message', (notification) => {
    logs.push(notification.params);
  });
  return logs;
}

const levels = (logs: LoggingMessageNotificationParams[]) => logs.map((log) => log.level);

describe('ToolContext.log', () => {
  let conn: Awaited<ReturnType<typeof connectProbe>>;
  afterEach(async () => conn?.close());

  it('sends notifications/message under the tool logger, message and data together, before the result', async () => {
    conn = await connectProbe(true);
    const logs = collectLogs(conn.client);
    const result = await conn.client.callTool({ name: 'probe', arguments: { mode: 'log' } });
    expect(result.isError).toBe(false);
    expect(logs).toEqual([
      { level: 'debug', logger: 'mcp-workshop/probe', data: { id: 7, message: 'step one' } },
      { level: 'info', logger: 'mcp-workshop/probe', data: { message: 'step two' } },
      { level: 'warning', logger: 'mcp-workshop/probe', data: { message: 'step three' } },
    ]);
  });

  it('drops levels below the one the client set with logging/setLevel', async () => {
    conn = await connectProbe(true);
    const logs = collectLogs(conn.client);
    await conn.client.setLoggingLevel('warning');
    await conn.client.callTool({ name: 'probe', arguments: { mode: 'log' } });
    expect(levels(logs)).toEqual(['warning']);
  });

  it('logs an unexpected exception as an error with the same ref as the result, and no detail', async () => {
    conn = await connectProbe(true);
    const logs = collectLogs(conn.client);
    const result = await conn.client.callTool({ name: 'probe', arguments: { mode: 'bug' } });
    expect(result.isError).toBe(true);
    const ref = /\(ref ([0-9a-f]{8})\)/.exec(JSON.stringify(result.content))?.[1];
    expect(ref).toBeDefined();
    expect(logs.at(-1)).toEqual({
      level: 'error',
      logger: 'mcp-workshop/probe',
      data: { ref, message: `Failed with an internal error (ref ${ref})` },
    });
    expect(JSON.stringify(logs)).not.toMatch(/secret/);
  });

  it('logs a ToolError as a warning without quoting its message', async () => {
    conn = await connectProbe(true);
    const logs = collectLogs(conn.client);
    const result = await conn.client.callTool({ name: 'probe', arguments: { mode: 'tool-error' } });
    expect(result.isError).toBe(true);
    expect(logs.at(-1)).toEqual({
      level: 'warning',
      logger: 'mcp-workshop/probe',
      data: { message: 'Failed with an error the model can act on' },
    });
    expect(JSON.stringify(logs)).not.toMatch(/private/);
  });

  it('never breaks a tool when the server cannot log', async () => {
    conn = await connectProbe(false);
    const logs = collectLogs(conn.client);
    const result = await conn.client.callTool({ name: 'probe', arguments: { mode: 'log' } });
    expect(result.isError).toBe(false);
    expect(logs).toEqual([]);
  });
});

describe('example tool logs', () => {
  let dir: string;
  let store: TodoStore;
  let conn: Connected;
  let logs: LoggingMessageNotificationParams[];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tool-logs-'));
    const now = () => new Date('2026-07-28T12:00:00Z');
    store = openTodoStore({ dataDir: dir, logger: createSilentLogger(), now });
    conn = await connectInMemory(testDeps({ todos: store, weather: createOfflineWeather(now), now }));
    logs = collectLogs(conn.client);
  });
  afterEach(async () => {
    await conn.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = (name: string, args: Record<string, unknown>) =>
    conn.client.callTool({ name, arguments: args });

  it('get_weather logs the lookup at debug and the resolved place at info', async () => {
    await call('get_weather', { location: 'oslo, no' });
    expect(levels(logs)).toEqual(['debug', 'info']);
    expect(logs[1]).toMatchObject({
      logger: 'mcp-workshop/get_weather',
      data: { message: 'Weather for Oslo, Norway', place: 'Oslo', source: 'offline-dataset' },
    });
  });

  it('get_weather logs an unknown place as a warning, then the failure, without the text typed', async () => {
    await call('get_weather', { location: 'Osloo' });
    expect(levels(logs)).toEqual(['debug', 'warning', 'warning']);
    expect(JSON.stringify(logs)).not.toMatch(/Osloo/);
  });

  it('task writes log at info with the id, never the title', async () => {
    await call('add_task', { title: 'Call my doctor about the rash' });
    await call('list_tasks', {});
    await call('complete_task', { id: 1 });
    await call('delete_task', { id: 1 });
    expect(logs.map(({ level, logger, data }) => [level, logger, data])).toEqual([
      ['info', 'mcp-workshop/add_task', { id: 1, message: 'Added a task' }],
      ['debug', 'mcp-workshop/list_tasks', { status: 'all', count: 1, more: false, message: 'Listed tasks' }],
      ['info', 'mcp-workshop/complete_task', { id: 1, message: 'Completed a task' }],
      ['info', 'mcp-workshop/delete_task', { id: 1, confirmedByUser: false, message: 'Deleted a task' }],
    ]);
    expect(JSON.stringify(logs)).not.toMatch(/doctor/);
  });

  it('calculate logs at debug without the expression', async () => {
    await call('calculate', { expression: '6 * 7' });
    expect(logs).toEqual([
      {
        level: 'debug',
        logger: 'mcp-workshop/calculate',
        data: { length: 5, message: 'Evaluating an expression' },
      },
    ]);
  });
});

describe('tool logs over HTTP (2026-07-28)', () => {
  let srv: TestServer;
  let client: Client;
  beforeEach(async () => {
    srv = await startTestServer();
    client = new Client({ name: 'log-test', version: '0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl)));
    expect(client.getProtocolEra()).toBe('modern');
  });
  afterEach(async () => {
    await client.close();
    await srv.close();
  });

  it('sends logs only when the request sets a logLevel, and only from that level up', async () => {
    const logs = collectLogs(client);
    await client.callTool({ name: 'get_weather', arguments: { location: 'Oslo' } });
    expect(logs).toEqual([]);
    await client.callTool({
      name: 'get_weather',
      arguments: { location: 'Oslo' },
      _meta: { 'io.modelcontextprotocol/logLevel': 'info' },
    });
    expect(levels(logs)).toEqual(['info']);
  });
});
