/**
 * `pnpm dev` with sign-in on, as a real process on a scratch copy of the catalogue, with tokens from
 * a test issuer: a save that gives a tool a scope it did not need is checked by the HTTP scope check
 * at once (403 `insufficient_scope` with its challenge), not only by the tool's own second check;
 * the scope policy is read again with every reload, not kept from the first load.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startTestIssuer, type TestIssuer } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScratchDev, startDevOnScratchCopy } from './scratch.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CATALOGUE = path.resolve(HERE, '../../../services/mcp-server');
const TOOL = 'src/tools/calculate.ts';
/** A safety net for the reload to show in the log; the test waits for the line, not for a time. */
const RELOAD_TIMEOUT_MS = 30_000;

let issuer: TestIssuer;
let dev: ScratchDev;

beforeAll(async () => {
  issuer = await startTestIssuer();
  const port = await freePort();
  dev = await startDevOnScratchCopy(CATALOGUE, port, {
    PATH: process.env.PATH ?? '',
    MCP_AUTH_ISSUER: issuer.issuer,
    MCP_RESOURCE_URL: `http://127.0.0.1:${port}/mcp`,
  });
}, 90_000);

afterAll(async () => {
  await dev?.stop();
  await issuer?.close();
});

/** Calls `calculate` on the curl path with a token that holds no scope. */
async function calculateWithoutScopes() {
  const token = await issuer.token({ subject: 'dev-user', resource: dev.mcpUrl, scopes: [] });
  const response = await fetch(new URL('/tools/calculate', dev.mcpUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ expression: '6*7' }),
  });
  await response.text();
  return { status: response.status, challenge: response.headers.get('www-authenticate') ?? '' };
}

async function reloads(count: number): Promise<void> {
  const deadline = Date.now() + RELOAD_TIMEOUT_MS;
  while ((dev.log().match(/reloaded the catalogue/g) ?? []).length < count) {
    if (Date.now() > deadline) throw new Error(`no reload in the log:\n${dev.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('pnpm dev with sign-in on', () => {
  it('checks a scope a save gave a tool over HTTP, with the reloaded policy', async () => {
    expect((await calculateWithoutScopes()).status).toBe(200);
    const source = dev.read(TOOL);
    expect(source).toContain("  name: 'calculate',\n");
    dev.save(
      TOOL,
      source.replace("  name: 'calculate',\n", "  name: 'calculate',\n  scopes: ['tasks:write'],\n"),
    );
    await reloads(1);
    const refused = await calculateWithoutScopes();
    expect(refused.status).toBe(403);
    expect(refused.challenge).toContain('error="insufficient_scope"');
    expect(refused.challenge).toContain('scope="tasks:write"');
  }, 60_000);
});
