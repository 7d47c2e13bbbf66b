/**
 * @module http/reload.http.test
 * `HostApp.reload` on the fixture host, over real HTTP with the SDK's own client: a live 2025
 * session keeps its id and hears tools/list_changed, then lists and calls the new catalogue; the
 * log level it set survives the move; a 2026-07-28 listen stream hears the change; pooled and
 * curl-path instances come from the new catalogue; a catalogue that throws changes nothing; with
 * sign-in on, the HTTP scope check follows the policy a reload hands over; and a host started
 * without `reloadable` refuses.
 */

import {
  freePort,
  openListenStream,
  postModern,
  readMessages,
  startTestIssuer,
  type TestIssuer,
} from '@mcp-workshop/test-infra';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpServer } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { discoverIssuer } from '../auth/issuer.js';
import { createScopePolicy } from '../auth/policy.js';
import { startFixtureHost } from '../test-support/fixture-host.js';
import {
  createFixtureFeed,
  createFixtureServer,
  FIXTURE_POLICY,
  NOTES_READ,
  NOTES_WRITE,
} from '../test-support/fixture-server.js';
import type { HttpHost } from './start.js';

/** The fixture's catalogue with one more tool: what a participant's save adds. */
function withShout(): McpServer {
  const server = createFixtureServer();
  server.registerTool(
    'shout',
    {
      description: 'Says the text back, louder.',
      inputSchema: z.object({ text: z.string().describe('What to say') }),
    },
    async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
  );
  return server;
}

/** How long a test waits for a notification that should come at once. */
const NOTIFY_TIMEOUT_MS = 5_000;

function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + NOTIFY_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) return resolve();
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(poll, 20);
    };
    poll();
  });
}

describe('HostApp.reload', () => {
  let host: HttpHost;
  const feed = createFixtureFeed();
  const clients: Client[] = [];

  beforeAll(async () => {
    host = await startFixtureHost({ reloadable: true, publishEvents: feed.publishEvents });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await host.app.reload(createFixtureServer);
  });
  afterAll(async () => {
    await host.close();
  });

  async function connect(): Promise<{
    client: Client;
    transport: StreamableHTTPClientTransport;
    heard: string[];
  }> {
    const heard: string[] = [];
    const client = new Client({ name: 'reload-test', version: '0' });
    client.fallbackNotificationHandler = async (notification) => {
      heard.push(notification.method);
    };
    const transport = new StreamableHTTPClientTransport(new URL(host.mcpUrl));
    await client.connect(transport);
    clients.push(client);
    return { client, transport, heard };
  }

  /**
   * The 2025 client opens its GET stream on its own after connecting, and a list_changed sent
   * before that reaches nobody: reloads of the same catalogue until one is heard show it is open.
   */
  async function untilStreamOpen(heard: string[]): Promise<void> {
    const listChanged = () => heard.includes('notifications/tools/list_changed');
    for (let attempt = 0; attempt < 10 && !listChanged(); attempt += 1) {
      await host.app.reload(createFixtureServer);
      await waitFor(listChanged, 'a probe').catch(() => undefined);
    }
    expect(heard, 'the GET stream never opened').toContain('notifications/tools/list_changed');
    heard.length = 0;
  }

  it('keeps a 2025 session, tells it tools/list_changed, and serves it the new catalogue', async () => {
    const { client, transport, heard } = await connect();
    const sessionId = transport.sessionId;
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('shout');
    await untilStreamOpen(heard);

    const report = await host.app.reload(withShout);
    expect(report).toEqual({ sessions: 1, failed: 0 });
    expect(host.app.sessions?.size).toBe(1);

    // The session's standalone stream carries the notification; the client opened it on connect.
    await waitFor(() => heard.includes('notifications/tools/list_changed'), 'tools/list_changed');
    expect(transport.sessionId).toBe(sessionId);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('shout');
    const shouted = await client.callTool({ name: 'shout', arguments: { text: 'hi' } });
    expect(shouted.content).toEqual([{ type: 'text', text: 'HI' }]);
    // The old tools still answer on the same session.
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'still here' }]);
  });

  it('replays the log level the session set, so the new instance keeps quiet as the old one did', async () => {
    const { client } = await connect();
    const logs: string[] = [];
    client.setNotificationHandler('notifications/message', async (notification) => {
      logs.push(String(notification.params.data));
    });
    await client.setLoggingLevel('error');
    await host.app.reload(withShout);
    await client.callTool({ name: 'slow_steps', arguments: {} });
    // slow_steps logs at info: below the session's level, on the new instance too.
    expect(logs).toEqual([]);
  });

  it('tells a 2026-07-28 listen stream that the tools changed', async () => {
    const stream = await openListenStream(host.mcpUrl, { toolsListChanged: true });
    try {
      expect(stream.status).toBe(200);
      expect(await stream.waitFor('notifications/subscriptions/acknowledged'), stream.heard()).toBe(true);
      await host.app.reload(withShout);
      expect(await stream.waitFor('notifications/tools/list_changed'), stream.heard()).toBe(true);
    } finally {
      await stream.close();
    }
  });

  it('serves 2026-07-28 calls and the curl path from the new catalogue at once', async () => {
    // Warm the pool with instances of the old catalogue first: they must not come back.
    for (let i = 0; i < 3; i++) await (await postModern(host.mcpUrl, 'tools/list', {})).text();
    await host.app.reload(withShout);
    const modern = await readMessages(
      await postModern(host.mcpUrl, 'tools/call', { name: 'shout', arguments: { text: 'new' } }),
    );
    expect(modern[0]?.result?.content).toEqual([{ type: 'text', text: 'NEW' }]);
    const curl = await fetch(`${host.baseUrl}/tools/shout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'curl' }),
    });
    expect(curl.status).toBe(200);
    expect(await curl.json()).toMatchObject({ content: [{ type: 'text', text: 'CURL' }] });
  });

  it('changes nothing when the new catalogue throws while it is built', async () => {
    const { client } = await connect();
    const broken = () => {
      throw new Error('tools/shout.ts: a syntax error on line 3');
    };
    await expect(host.app.reload(broken)).rejects.toThrow('line 3');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
    const modern = await readMessages(
      await postModern(host.mcpUrl, 'tools/call', { name: 'echo', arguments: { text: 'ok' } }),
    );
    expect(modern[0]?.result?.content).toEqual([{ type: 'text', text: 'ok' }]);
  });
});

describe('HostApp.reload with sign-in on', () => {
  let issuer: TestIssuer;
  let host: HttpHost;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    const port = await freePort();
    host = await startFixtureHost({
      port,
      reloadable: true,
      auth: {
        issuer: await discoverIssuer(issuer.issuer),
        resource: `http://127.0.0.1:${port}/mcp`,
        policy: FIXTURE_POLICY,
      },
    });
  });
  afterAll(async () => {
    await host?.close();
    await issuer?.close();
  });

  /** The fixture's policy, with `echo` needing notes:write as a save of its file might say. */
  const echoNeedsWrite = createScopePolicy({
    supported: [NOTES_READ, NOTES_WRITE],
    tools: [
      { name: 'write_note', scopes: [NOTES_WRITE] },
      { name: 'echo', scopes: [NOTES_WRITE] },
    ],
    resourceSchemes: { notes: [NOTES_READ] },
  });

  const echoAs = async (scopes: string[]) => {
    const token = await issuer.token({ subject: 'reloader', resource: host.mcpUrl, scopes });
    const response = await postModern(
      host.mcpUrl,
      'tools/call',
      { name: 'echo', arguments: { text: 'scoped' } },
      { headers: { authorization: `Bearer ${token}` } },
    );
    await response.text();
    return response.status;
  };

  it('checks scopes over HTTP with the policy the reload handed over', async () => {
    expect(await echoAs([])).toBe(200);
    await host.app.reload(createFixtureServer, { policy: echoNeedsWrite });
    expect(await echoAs([])).toBe(403);
    expect(await echoAs([NOTES_WRITE])).toBe(200);
    // A reload without a policy keeps the one in force.
    await host.app.reload(createFixtureServer);
    expect(await echoAs([])).toBe(403);
    await host.app.reload(createFixtureServer, { policy: FIXTURE_POLICY });
    expect(await echoAs([])).toBe(200);
  });
});

describe('a host without reloadable', () => {
  it('refuses reload, so production never pays for the session record', async () => {
    const host = await startFixtureHost();
    try {
      await expect(host.app.reload(createFixtureServer)).rejects.toThrow(/reloadable/);
    } finally {
      await host.close();
    }
  });
});
