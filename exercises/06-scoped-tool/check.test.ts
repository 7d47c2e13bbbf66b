/**
 * The check for exercise 06: `clear_completed_tasks`, served over HTTP with sign-in on, with real
 * tokens from the workshop's authorization server (a separate process). Each test name is a
 * sentence `pnpm exercise 06` prints when it fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AGENT_CLIENT,
  type AuthServerProcess,
  READER_CLIENT,
  startAuthServerProcess,
} from '@mcp-workshop/auth-server/process';
import { discoverIssuer, ownerOf, SHARED_OWNER } from '@mcp-workshop/mcp-host';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadParticipant } from '../test-support/participant.js';
import { type ServedTools, serveTools } from '../test-support/serve.js';

type Participant = typeof import('./starter/clear-completed-tasks.js');

const RESOURCE = 'http://127.0.0.1:3000/mcp';

describe('exercise 06: clear_completed_tasks, with sign-in on', () => {
  let auth: AuthServerProcess;
  let served: ServedTools;
  let url: string;
  let dataDir: string;
  let deps: ServedTools['deps'];
  const tokens = { writer: '', reader: '' };

  beforeAll(async () => {
    const { clearCompletedTasks } = await loadParticipant<Participant>(
      '06-scoped-tool',
      'clear-completed-tasks.ts',
    );
    auth = await startAuthServerProcess({ resources: [RESOURCE] });
    tokens.writer = await auth.token(AGENT_CLIENT, RESOURCE, 'tasks:read tasks:write');
    tokens.reader = await auth.token(READER_CLIENT, RESOURCE, 'tasks:read');
    dataDir = mkdtempSync(join(tmpdir(), 'exercise-06-'));
    served = await serveTools('exercise-06', [clearCompletedTasks], {
      dataDir,
      stateless: true,
      // The scopes come from the tool's own definition, as the workshop server's do.
      auth: { issuer: await discoverIssuer(auth.issuer), resource: RESOURCE },
    });
    ({ deps, mcpUrl: url } = served);
  }, 30_000);

  afterAll(async () => {
    await served?.close();
    await auth?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function client(token: string): Promise<Client> {
    const connected = new Client({ name: 'exercise-06-check', version: '0.0.0' });
    await connected.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return connected;
  }

  const listed = async () => {
    const connected = await client(tokens.writer);
    try {
      const { tools } = await connected.listTools();
      const tool = tools.find((entry) => entry.name === 'clear_completed_tasks');
      expect(tool, 'tools/list has no tool named clear_completed_tasks').toBeDefined();
      return tool as NonNullable<typeof tool>;
    } finally {
      await connected.close();
    }
  };

  it('the tool declares the scope tasks:write, and tools/list shows it', async () => {
    const tool = await listed();
    expect(
      tool._meta?.['mcp-workshop/requiredScopes'],
      'add scopes: [TASKS_WRITE] to defineTool: this tool deletes tasks',
    ).toEqual(['tasks:write']);
  });

  it('its annotations say it writes, destroys and can be repeated safely', async () => {
    const { annotations } = await listed();
    expect(annotations?.readOnlyHint, 'readOnlyHint should be false: it deletes tasks').toBe(false);
    expect(annotations?.destructiveHint, 'destructiveHint should be true: deleted tasks are gone').toBe(true);
    expect(
      annotations?.idempotentHint,
      'idempotentHint should be true: a second call deletes nothing more',
    ).toBe(true);
  });

  it('a token with only tasks:read gets HTTP 403 insufficient_scope, naming tasks:write', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${tokens.reader}`,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'clear_completed_tasks', arguments: {} },
      }),
    });
    expect(response.status, 'a caller without tasks:write must be refused before the tool runs').toBe(403);
    expect(response.headers.get('www-authenticate') ?? '', 'the challenge should name the scope').toContain(
      'scope="tasks:write"',
    );
  });

  it('a token with tasks:write deletes the completed tasks and keeps the open ones', async () => {
    // The writer's token is workshop-agent's: its tasks are the ones the tool may clear.
    const owner = ownerOf({
      token: '',
      clientId: AGENT_CLIENT.id,
      scopes: [],
      extra: { sub: AGENT_CLIENT.id },
    });
    const done = [
      await deps.todos.add(owner, 'Water the plants'),
      await deps.todos.add(owner, 'Book the train'),
    ];
    const open = await deps.todos.add(owner, 'Write the report');
    // Another user's finished task must survive.
    const someoneElses = await deps.todos.add(SHARED_OWNER, 'Not yours to clear');
    await deps.todos.complete(SHARED_OWNER, someoneElses.id);
    for (const task of done) await deps.todos.complete(owner, task.id);
    const connected = await client(tokens.writer);
    try {
      const result = await connected.callTool({ name: 'clear_completed_tasks', arguments: {} });
      expect(result.isError, 'the call failed; is run() still the TODO?').not.toBe(true);
      expect(result.structuredContent, 'return ok({ deleted }) with the number deleted').toEqual({
        deleted: 2,
      });
      expect(
        (await deps.todos.list(owner, 'all')).map((task) => task.id),
        'only the open task should be left',
      ).toEqual([open.id]);
      expect(
        (await deps.todos.list(SHARED_OWNER, 'done')).map((task) => task.id),
        "another user's completed task must stay: list and delete with the `owner` the call brings",
      ).toEqual([someoneElses.id]);
    } finally {
      await connected.close();
    }
  });
});
