/**
 * The agent signs in to a server that requires OAuth, with the official SDK client's support: the
 * workshop server (sign-in on) and the workshop's authorization server, each its own process.
 */

import { AGENT_CLIENT, type AuthServerProcess, READER_CLIENT } from '@mcp-workshop/auth-server/process';
import { auth as sdkAuth } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecuredWorkshop } from '../test-support/secured-workshop.js';
import type { WorkshopProcess } from '../test-support/workshop-process.js';
import type { InputHandler } from '../types.js';
import { parseServersConfig, type ServerSpec } from './config.js';
import { type ConnectedServer, connectServer } from './connect.js';
import { createMcpHub } from './hub.js';
import { RENEW_AT_MOST_MS_BEFORE_EXPIRY, RenewingClientCredentials } from './renewing-credentials.js';
import { McpConnectError } from './retry.js';
import { silentLogger } from './test-support/logger.js';

const clientInfo = { name: 'agent-oauth-test', version: '0.0.0' };
const refuseInput: InputHandler = async () => ({ action: 'decline' });
const options = {
  clientInfo,
  onInput: refuseInput,
  logger: silentLogger(),
  retry: { attempts: 3, initialDelayMs: 50, maxDelayMs: 100 },
};

let auth: AuthServerProcess;
let workshop: WorkshopProcess;
const opened: ConnectedServer[] = [];

beforeAll(async () => {
  ({ auth, workshop } = await startSecuredWorkshop());
}, 40_000);

afterAll(async () => {
  await Promise.all(opened.map((server) => server.close().catch(() => {})));
  await Promise.all([workshop?.close(), auth?.close()]);
});

function signedIn(client: { id: string; secret: string }, extra: Partial<ServerSpec> = {}): ServerSpec {
  return {
    transport: 'http',
    name: 'workshop',
    url: workshop.mcpUrl,
    oauth: { clientId: client.id, clientSecret: client.secret, issuer: auth.issuer },
    ...extra,
  } as ServerSpec;
}

async function connect(spec: ServerSpec): Promise<ConnectedServer> {
  const server = await connectServer(spec, options);
  opened.push(server);
  return server;
}

describe('client credentials through the SDK', () => {
  it('signs in from the 401 alone (metadata, issuer, token for this resource) and calls tools', async () => {
    const server = await connect(signedIn(AGENT_CLIENT));
    expect(server.tools.map((tool) => tool.name)).toContain('add_task');
    const hub = createMcpHub([server], silentLogger());
    const added = await hub.callTool('workshop', 'add_task', { title: 'Signed in' }, { timeoutMs: 10_000 });
    expect(added.result?.isError).toBe(false);
  });

  it('tells the model a tool is not allowed when the sign-in lacks its scope, and keeps the connection', async () => {
    const server = await connect(signedIn(READER_CLIENT));
    const hub = createMcpHub([server], silentLogger());
    const refused = await hub.callTool('workshop', 'delete_task', { id: 1 }, { timeoutMs: 10_000 });
    expect(refused.failure?.kind).toBe('not_allowed');
    expect(refused.failure?.message).toMatch(/^delete_task is not allowed: this agent's sign-in lacks/);
    const listed = await hub.callTool('workshop', 'list_tasks', {}, { timeoutMs: 10_000 });
    expect(listed.result?.isError).toBe(false);
  });

  it('gives up at once on a wrong secret, and never quotes it', async () => {
    const secret = 'not-the-right-secret-4711';
    const error = await connectServer(signedIn({ id: AGENT_CLIENT.id, secret }), options).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as McpConnectError).attempts).toBe(1);
    expect((error as McpConnectError).message).not.toContain(secret);
  });

  it('sends the secret to the configured issuer only', async () => {
    const error = await connectServer(
      {
        ...signedIn(AGENT_CLIENT),
        oauth: {
          clientId: AGENT_CLIENT.id,
          clientSecret: AGENT_CLIENT.secret,
          issuer: 'http://127.0.0.1:9/elsewhere',
        },
      } as ServerSpec,
      options,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as McpConnectError).message).toMatch(/issuer|authorization server/i);
  });
});

describe('renewal before expiry', () => {
  it('renews the token a minute before it expires, while the old one still works', async () => {
    let clock = Date.now();
    const provider = new RenewingClientCredentials({
      clientId: AGENT_CLIENT.id,
      clientSecret: AGENT_CLIENT.secret,
      issuer: auth.issuer,
      serverUrl: workshop.mcpUrl,
      now: () => clock,
    });
    expect(await sdkAuth(provider, { serverUrl: workshop.mcpUrl })).toBe('AUTHORIZED');
    const first = provider.tokens();
    const lifetimeMs = (first?.expires_in ?? 0) * 1000;
    expect(lifetimeMs).toBeGreaterThan(0);

    clock += lifetimeMs - Math.min(lifetimeMs / 2, RENEW_AT_MOST_MS_BEFORE_EXPIRY) - 1_000;
    expect(provider.tokens()).toBe(first);
    await provider.settled();
    expect(provider.tokens()).toBe(first);

    clock += 2_000;
    // The request that notices is sent with the old token, which is still valid; the next gets the new one.
    expect(provider.tokens()).toBe(first);
    await provider.settled();
    const second = provider.tokens();
    expect(second?.access_token).toBeDefined();
    expect(second?.access_token).not.toBe(first?.access_token);
  });
});

describe('a static bearer header (servers that use API keys)', () => {
  it('connects with a token in "headers", and is refused without a valid one', async () => {
    const token = await auth.token(AGENT_CLIENT, workshop.mcpUrl, 'tasks:read tasks:write');
    const [spec] = parseServersConfig(
      { mcpServers: { workshop: { url: workshop.mcpUrl, headers: { Authorization: `Bearer ${token}` } } } },
      'test config',
    );
    const server = await connect(spec as ServerSpec);
    expect(server.tools.length).toBeGreaterThan(0);

    const error = await connectServer(
      {
        transport: 'http',
        name: 'workshop',
        url: workshop.mcpUrl,
        headers: { Authorization: 'Bearer forged' },
      },
      options,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as McpConnectError).attempts).toBe(1);
  });
});
