/**
 * A person signs in: authorization code with PKCE through the SDK, a loopback redirect, and the
 * workshop's authorization server's real sign-in pages, played by `signInAsDemoUser`.
 */

import { type AuthServerProcess, signInAsDemoUser } from '@mcp-workshop/auth-server/process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecuredWorkshop } from '../test-support/secured-workshop.js';
import type { WorkshopProcess } from '../test-support/workshop-process.js';
import type { InputHandler } from '../types.js';
import type { ServerSpec } from './config.js';
import { connectServer } from './connect.js';
import { createMcpHub } from './hub.js';
import { startLoopbackCallback } from './person-sign-in.js';
import { McpConnectError } from './retry.js';
import { silentLogger } from './test-support/logger.js';

const clientInfo = { name: 'agent-person-test', version: '0.0.0' };
const refuseInput: InputHandler = async () => ({ action: 'decline' });
const once = { attempts: 1, initialDelayMs: 0, maxDelayMs: 0 };

let auth: AuthServerProcess;
let workshop: WorkshopProcess;

beforeAll(async () => {
  ({ auth, workshop } = await startSecuredWorkshop());
}, 40_000);

afterAll(async () => {
  await Promise.all([workshop?.close(), auth?.close()]);
});

const spec = (): ServerSpec => ({
  transport: 'http',
  name: 'workshop',
  url: workshop.mcpUrl,
  oauth: { clientId: 'workshop-chat', issuer: auth.issuer },
});

describe('a person signs in (authorization code with PKCE, loopback redirect)', () => {
  it('shows the link, waits for the browser to come back, and connects as that person', async () => {
    const links: string[] = [];
    const server = await connectServer(spec(), {
      clientInfo,
      onInput: refuseInput,
      logger: silentLogger(),
      retry: once,
      onSignIn: ({ url }) => {
        links.push(url);
        // The person opens the link in a browser, signs in, and the browser returns to the agent.
        void signInAsDemoUser(url).then((callback) => fetch(callback));
      },
    });
    try {
      expect(links).toHaveLength(1);
      const link = new URL(links[0] ?? '');
      expect(link.searchParams.get('code_challenge_method')).toBe('S256');
      expect(link.searchParams.get('resource')).toBe(workshop.mcpUrl);
      expect(link.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const added = await createMcpHub([server], silentLogger()).callTool(
        'workshop',
        'add_task',
        { title: 'Added by a person' },
        { timeoutMs: 10_000 },
      );
      expect(added.result?.isError).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('fails with the reason when the person cancels, and gives up after the timeout', async () => {
    const cancelled = await connectServer(spec(), {
      clientInfo,
      onInput: refuseInput,
      logger: silentLogger(),
      retry: once,
      onSignIn: ({ url }) => {
        const redirect = new URL(url).searchParams.get('redirect_uri') ?? '';
        const state = new URL(url).searchParams.get('state') ?? '';
        void fetch(`${redirect}?error=access_denied&error_description=The+user+cancelled&state=${state}`);
      },
    }).catch((caught: unknown) => caught);
    expect(cancelled).toBeInstanceOf(McpConnectError);
    expect((cancelled as Error).message).toMatch(/The user cancelled/);

    const ignored = await connectServer(spec(), {
      clientInfo,
      onInput: refuseInput,
      logger: silentLogger(),
      retry: once,
      signInTimeoutMs: 300,
      onSignIn: () => {},
    }).catch((caught: unknown) => caught);
    expect((ignored as Error).message).toMatch(/Nobody signed in within/);
  });
});

describe('the loopback callback', () => {
  it('accepts only its own state, refuses what lacks a code, and escapes what it echoes', async () => {
    const callback = await startLoopbackCallback();
    try {
      const waiting = callback.next('right-state', 5_000);
      const forged = await fetch(`${callback.redirectUrl}?code=stolen&state=wrong-state`);
      expect(forged.status).toBe(400);
      expect((await fetch(callback.redirectUrl.replace('/callback', '/other'))).status).toBe(404);
      expect((await fetch(callback.redirectUrl, { method: 'POST' })).status).toBe(404);
      const ok = await fetch(`${callback.redirectUrl}?code=the-code&state=right-state`);
      expect(ok.status).toBe(200);
      expect((await waiting).get('code')).toBe('the-code');

      const failing = callback.next('s2', 5_000).catch((error: unknown) => error);
      const hostile = await fetch(
        `${callback.redirectUrl}?error=x&error_description=${encodeURIComponent('<script>alert(1)</script>')}&state=s2`,
      );
      expect(await hostile.text()).not.toContain('<script>');
      expect(String(await failing)).toMatch(/Sign-in failed/);

      const noCode = callback.next('s3', 5_000).catch((error: unknown) => error);
      expect((await fetch(`${callback.redirectUrl}?state=s3`)).status).toBe(400);
      expect(String(await noCode)).toMatch(/no code/);
    } finally {
      await callback.close();
    }
  });
});
