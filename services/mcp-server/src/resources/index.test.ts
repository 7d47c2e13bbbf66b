import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectInProcess } from '@mcp-workshop/mcp-host/in-process';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import type { TodoStore } from '@mcp-workshop/task-store';
import { announceTodoChanges, createTodoEvents, openTodoStore } from '@mcp-workshop/task-store';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDeps } from '../test-support/in-memory.js';
import { createMcpServer } from '../test-support/server.js';

describe('registerResources', () => {
  let dir: string;
  let store: TodoStore;
  let client: Client;
  let close: () => Promise<void>;

  /** A client on the real createMcpServer, with the given page size. */
  async function connect(pageSize?: number) {
    const todoEvents = createTodoEvents();
    const server = createMcpServer(testDeps({ todos: store, todoEvents }), { pageSize });
    const connection = await connectInProcess(server);
    client = connection.client;
    close = connection.close;
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resources-index-'));
    store = announceTodoChanges(
      openTodoStore({ dataDir: dir, logger: createSilentLogger() }),
      createTodoEvents(),
    );
  });
  afterEach(async () => {
    await close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('declares resources with subscribe and listChanged', async () => {
    await connect();
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
  });

  it('gives every listed resource and template a name, title, description and mimeType', async () => {
    await store.add('', 'one');
    await connect();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(
      expect.arrayContaining([
        'tasks://all',
        'tasks://1',
        'cities://all',
        'ui://weather/forecast',
        'ui://tasks/board',
        expect.stringMatching(/^adr:\/\//),
      ]),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual(
      ['adr://{slug}', 'tasks://all{?cursor}', 'tasks://{id}'].sort(),
    );
    for (const item of [...resources, ...resourceTemplates]) {
      expect(item).toMatchObject({
        name: expect.stringMatching(/\S/),
        title: expect.stringMatching(/\S/),
        description: expect.stringMatching(/\S/),
        mimeType: expect.stringMatching(/^(application\/json|text\/markdown|text\/html;profile=mcp-app)$/),
      });
    }
  });

  it('pages resources/list and resources/templates/list with pageSize 2', async () => {
    for (const title of ['a', 'b', 'c']) await store.add('', title);
    await connect(2);
    // The client's listResources() without a cursor walks every page itself; ask for page one raw.
    let page = await client.request({ method: 'resources/list', params: {} });
    const seen: string[] = [];
    let pages = 1;
    for (;;) {
      expect(page.resources.length).toBeLessThanOrEqual(2);
      seen.push(...page.resources.map((resource) => resource.uri));
      if (!page.nextCursor || pages >= 100) break;
      page = await client.listResources({ cursor: page.nextCursor });
      pages += 1;
    }
    expect(pages).toBeGreaterThan(2);
    expect(new Set(seen).size).toBe(seen.length);
    // Fixed resources first (the MCP Apps views among them, by URI: every folder under views/ with a
    // main.ts, the workshop's two and any `pnpm new-tool <name> --view` added), then each template's list.
    const views = seen.filter((uri) => uri.startsWith('ui://'));
    expect(views).toEqual(expect.arrayContaining(['ui://weather/forecast', 'ui://tasks/board']));
    expect(views).toEqual([...views].sort());
    expect(seen.slice(0, 7 + views.length - 2)).toEqual([
      'tasks://all',
      'cities://all',
      ...views,
      'tasks://1',
      'tasks://2',
      'tasks://3',
    ]);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(seen);

    const templates = await client.request({ method: 'resources/templates/list', params: {} });
    expect(templates.resourceTemplates).toHaveLength(2);
    const rest = await client.listResourceTemplates({ cursor: templates.nextCursor });
    expect(rest.resourceTemplates).toHaveLength(1);
    expect(rest.nextCursor).toBeUndefined();
  });

  it('refuses a cursor it did not issue with -32602', async () => {
    await connect(2);
    await expect(client.listResources({ cursor: 'bogus' })).rejects.toMatchObject({ code: -32602 });
  });

  it('answers resource-not-found (-32602 with data.uri) for a URI no resource matches', async () => {
    await connect();
    await expect(client.readResource({ uri: 'x://missing' })).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'x://missing' },
    });
  });
});
