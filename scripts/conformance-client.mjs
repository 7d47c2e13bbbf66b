#!/usr/bin/env node
/**
 * The agent's MCP client, as the official conformance suite's client scenarios run it:
 *   conformance client --command "node scripts/conformance-client.mjs" --scenario auth/client-credentials-basic
 * The suite starts a mock MCP server and authorization server, then runs this with the server's URL
 * as the last argument, and the scenario's credentials in MCP_CONFORMANCE_CONTEXT. This connects
 * with the agent's own code (connectServer, the SDK's OAuth support), lists the tools, calls the
 * first one, and exits 0 when all of that worked. `node scripts/conformance.mjs --client-auth` runs it.
 */
import { connectServer, createMcpHub, createSilentLogger } from '../services/agent/dist/lib.js';

const url = process.argv.at(-1);
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/**
 * The agent pins the issuer its secret may go to (MCP_OAUTH_ISSUER). The suite's issuer is
 * random per run and only the server's metadata names it, so this harness reads it from there.
 */
async function issuerOf(serverUrl) {
  const base = new URL(serverUrl);
  const metadata = await fetch(new URL(`/.well-known/oauth-protected-resource${base.pathname}`, base));
  if (!metadata.ok)
    throw new Error(`no protected resource metadata at ${metadata.url} (HTTP ${metadata.status})`);
  const [issuer] = (await metadata.json()).authorization_servers ?? [];
  if (!issuer) throw new Error('the protected resource metadata names no authorization server');
  return issuer;
}

const logger = createSilentLogger();
const oauth = context.client_id
  ? { clientId: context.client_id, clientSecret: context.client_secret ?? '', issuer: await issuerOf(url) }
  : undefined;
const server = await connectServer(
  { transport: 'http', name: 'conformance', url, ...(oauth && { oauth }) },
  {
    clientInfo: { name: 'mcp-workshop-agent', version: '0' },
    onInput: async () => ({ action: 'decline' }),
    logger,
    retry: { attempts: 1, initialDelayMs: 0, maxDelayMs: 0 },
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
