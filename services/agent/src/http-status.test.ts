/**
 * Tests for the agent's start-up as the page sees it (`GET /api/status`, `/health`, the chat's 503)
 * while it connects after listening, as `index.ts` runs it: the real workshop server with sign-in
 * on, the real authorization server, `startRuntime`, and a person's sign-in played by
 * `signInAsDemoUser`. No browser: services/web-e2e has that.
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AGENT_CLIENT, type AuthServerProcess, signInAsDemoUser } from '@mcp-workshop/auth-server/process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentEnv } from './env.js';
import { createAgentApp, type StatusBody, type ViewSandboxLocation } from './http.js';
import { declineInput } from './input.js';
import { createSilentLogger } from './logger.js';
import { type Runtime, startRuntime } from './runtime.js';
import { type AgentStartup, type AgentStatus, createAgentStartup } from './startup.js';
import { startSecuredWorkshop } from './test-support/secured-workshop.js';
import type { WorkshopProcess } from './test-support/workshop-process.js';

/** Each wait is bounded and shorter than the test's own timeout, so its message shows. */
const WAIT_MS = 10_000;

let auth: AuthServerProcess;
let workshop: WorkshopProcess;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  ({ auth, workshop } = await startSecuredWorkshop());
}, 40_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

afterAll(async () => {
  await Promise.all([workshop?.close(), auth?.close()]);
});

/** Listens first, then starts the runtime behind it, as `index.ts` does. */
async function startAgent(
  oauth: Record<string, string>,
): Promise<{ baseUrl: string; startup: AgentStartup }> {
  const logger = createSilentLogger();
  const startup = createAgentStartup();
  const app = createAgentApp({ startup, logger });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const env = loadAgentEnv({
    MCP_SERVER_URL: workshop.mcpUrl,
    MCP_OAUTH_ISSUER: auth.issuer,
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
    ...oauth,
  });
  const starting = startRuntime({ env, logger, onInput: declineInput, connectAttempts: 1, ...startup.hooks });
  cleanups.push(() => starting.then((runtime: Runtime) => runtime.close()));
  void startup.follow(starting);
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, startup };
}

async function status(baseUrl: string): Promise<AgentStatus> {
  const response = await fetch(`${baseUrl}/api/status`);
  expect(response.status).toBe(200);
  return (await response.json()) as AgentStatus;
}

/** Polls `/api/status`, as the page does, until `done` holds. */
async function waitForStatus(baseUrl: string, done: (status: AgentStatus) => boolean): Promise<AgentStatus> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const current = await status(baseUrl);
    if (done(current)) return current;
    if (Date.now() > deadline) throw new Error(`status never changed: ${JSON.stringify(current)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function chat(baseUrl: string, path = '/api/chat'): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'hello' }),
  });
}

describe('GET /api/status', () => {
  it('shows the sign-in link while starting, then who signed in once ready', async () => {
    const { baseUrl } = await startAgent({ MCP_OAUTH_CLIENT_ID: 'workshop-chat' });
    const pending = await waitForStatus(baseUrl, (s) => s.signIn !== undefined);
    expect(pending).toMatchObject({ state: 'starting', signedIn: [], signIn: { server: 'workshop' } });
    expect(new URL(pending.signIn?.url ?? '').origin).toBe(auth.issuer);

    // Until the person signs in, nothing that needs the agent works, and it says why.
    const refused = await chat(baseUrl);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toMatch(/sign in to "workshop"/);
    expect((await chat(baseUrl, '/api/chat/stream')).status).toBe(503);
    expect((await fetch(`${baseUrl}/api/tools`)).status).toBe(503);
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'starting', ready: false });

    const callback = await signInAsDemoUser(pending.signIn?.url ?? '');
    expect((await fetch(callback)).status).toBe(200);
    const ready = await waitForStatus(baseUrl, (s) => s.state === 'ready');
    expect(ready.signIn).toBeUndefined();
    expect(ready.signedIn).toEqual([{ server: 'workshop', user: 'demo', kind: 'person' }]);
    expect(ready.servers?.[0]).toMatchObject({
      name: 'workshop',
      signedInAs: { user: 'demo', kind: 'person' },
    });

    const healthy = await fetch(`${baseUrl}/health`);
    expect(healthy.status).toBe(200);
    const body = await healthy.text();
    expect(JSON.parse(body)).toMatchObject({ status: 'ok', ready: true });
    // Who is signed in, never how: no token (a JWT starts with "eyJ") on any of these.
    expect(body).not.toMatch(/eyJ|access_token/);
    expect(JSON.stringify(ready)).not.toMatch(/eyJ|access_token/);
    expect((await fetch(`${baseUrl}/api/tools`)).status).toBe(200);
  });

  it('shows the machine client as signed in when it signs in with a secret', async () => {
    const { baseUrl } = await startAgent({
      MCP_OAUTH_CLIENT_ID: AGENT_CLIENT.id,
      MCP_OAUTH_CLIENT_SECRET: AGENT_CLIENT.secret,
    });
    const ready = await waitForStatus(baseUrl, (s) => s.state !== 'starting');
    expect(ready).toMatchObject({
      state: 'ready',
      signedIn: [{ server: 'workshop', user: AGENT_CLIENT.id, kind: 'client' }],
    });
    expect(JSON.stringify(ready)).not.toContain(AGENT_CLIENT.secret);
  });

  it('says why start-up failed when the person cancels the sign-in', async () => {
    const { baseUrl } = await startAgent({ MCP_OAUTH_CLIENT_ID: 'workshop-chat' });
    const pending = await waitForStatus(baseUrl, (s) => s.signIn !== undefined);
    const link = new URL(pending.signIn?.url ?? '');
    const redirect = link.searchParams.get('redirect_uri') ?? '';
    const state = link.searchParams.get('state') ?? '';
    await fetch(`${redirect}?error=access_denied&error_description=The+user+cancelled&state=${state}`);

    const failed = await waitForStatus(baseUrl, (s) => s.state === 'failed');
    expect(failed.signIn).toBeUndefined();
    expect(failed.error).toMatch(/The user cancelled/);
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'failed', ready: false });
    const refused = await chat(baseUrl);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/could not start/),
    });
  });
});

describe('GET /api/status: the sandbox proxy for views', () => {
  /** The status an app built with `viewSandbox` reports while it starts (it needs no MCP server). */
  async function statusWith(viewSandbox?: ViewSandboxLocation): Promise<StatusBody> {
    const app = createAgentApp({
      startup: createAgentStartup(),
      logger: createSilentLogger(),
      ...(viewSandbox && { viewSandbox }),
    });
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/status`);
    expect(response.status).toBe(200);
    return (await response.json()) as StatusBody;
  }

  it('is null when the agent runs no sandbox proxy', async () => {
    expect((await statusWith()).viewSandbox).toBeNull();
  });

  it('gives the port, and the origin only when one is set', async () => {
    expect((await statusWith({ port: 3004 })).viewSandbox).toEqual({ port: 3004, origin: null });
    expect((await statusWith({ port: 41_234, origin: 'https://views.example' })).viewSandbox).toEqual({
      port: 41_234,
      origin: 'https://views.example',
    });
  });
});

describe('createAgentStartup', () => {
  it('lets a sign-in link go stale and drops it once that sign-in ends', () => {
    let now = 0;
    const startup = createAgentStartup(() => now);
    startup.hooks.onSignIn({ server: 'a', url: 'https://issuer.example/authorize?x=1' });
    expect(startup.status().signIn).toEqual({ server: 'a', url: 'https://issuer.example/authorize?x=1' });
    now += 10 * 60_000;
    expect(startup.status().signIn).toBeUndefined();
    startup.hooks.onSignIn({ server: 'b', url: 'https://issuer.example/authorize?x=2' });
    startup.hooks.onSignInEnd({ server: 'b', user: 'demo' });
    expect(startup.status()).toEqual({
      state: 'starting',
      signedIn: [{ server: 'b', user: 'demo', kind: 'person' }],
    });
  });
});
