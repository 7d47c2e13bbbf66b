#!/usr/bin/env node
// @ts-check
/**
 * The agent's MCP client, as the official conformance suite's client scenarios run it:
 *   conformance client --command "node scripts/conformance-client.mjs" --scenario auth/client-credentials-basic
 * The suite starts a mock MCP server and authorization server, then runs this with the server's URL
 * as the last argument, and the scenario's credentials, if any, in MCP_CONFORMANCE_CONTEXT. This
 * connects with the agent's own code (connectServer, the SDK's OAuth support), lists the tools,
 * calls the first one, and exits 0 when all of that worked. With a client secret in the context it
 * signs in as a machine; without, as a person, and plays the browser: the suite's authorization
 * server approves at once, so following its redirects lands on the agent's loopback callback.
 * `node scripts/conformance-client-auth.mjs` (pnpm conformance:client) runs it.
 */
import { connectServer, createMcpHub, createSilentLogger } from '../services/agent/dist/lib.js';

// The suite runs this file with the server's URL as the last argument.
const url = process.argv.at(-1) ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/**
 * The agent pins the issuer its secret may go to (MCP_OAUTH_ISSUER). The suite's issuer is
 * random per run and only the server's metadata names it, so this harness reads it from there:
 * the 401's resource_metadata link first (RFC 9728 section 5.1), then the two well-known paths,
 * and last the server's own origin, as 2025-03-26 had it.
 */
async function issuerOf(serverUrl, challenge) {
  const base = new URL(serverUrl);
  const linked = /resource_metadata="([^"]+)"/.exec(challenge ?? '')?.[1];
  const candidates = [
    ...(linked ? [new URL(linked, base)] : []),
    new URL(`/.well-known/oauth-protected-resource${base.pathname}`, base),
    new URL('/.well-known/oauth-protected-resource', base),
  ];
  for (const candidate of candidates) {
    const metadata = await fetch(candidate);
    if (!metadata.ok) continue;
    const { authorization_servers: servers } = /** @type {{ authorization_servers?: string[] }} */ (
      await metadata.json()
    );
    const [issuer] = servers ?? [];
    if (issuer) return issuer;
  }
  // A 2025-03-26 server has no such document: that revision's authorization server is the
  // MCP server's own origin.
  return base.origin;
}

/** The browser: follows the authorization server's redirects until it reaches the agent's callback. */
async function playBrowser(link) {
  let next = link;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return;
    next = new URL(location, next).href;
  }
}

const logger = createSilentLogger();
const probe = await fetch(url, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: '{}',
});
const needsSignIn = probe.status === 401;
const oauth = needsSignIn
  ? {
      issuer: await issuerOf(url, probe.headers.get('www-authenticate')),
      ...(context.client_id && { clientId: context.client_id }),
      ...(context.client_secret && { clientSecret: context.client_secret }),
    }
  : undefined;
const server = await connectServer(
  { transport: 'http', name: 'conformance', url, ...(oauth && { oauth }) },
  {
    clientInfo: { name: 'mcp-workshop-agent', version: '0' },
    onInput: async () => ({ action: 'decline' }),
    logger,
    retry: { attempts: 1, initialDelayMs: 0, maxDelayMs: 0 },
    onSignIn: ({ url: link }) => void playBrowser(link),
    signInTimeoutMs: 20_000,
  },
);
try {
  const [tool] = server.tools;
  if (tool) {
    const outcome = await createMcpHub([server], logger).callTool(
      'conformance',
      tool.name,
      {},
      { timeoutMs: 10_000 },
    );
    if (outcome.failure) throw new Error(`${tool.name}: ${outcome.failure.kind}: ${outcome.failure.message}`);
  }
} finally {
  await server.close();
}
