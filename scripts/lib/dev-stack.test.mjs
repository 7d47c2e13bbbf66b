// @ts-check
// Tests of scripts/lib/dev-stack.mjs; run with `node --test scripts/lib/`. A real HTTP server
// answers /health as a dev server, a shipped server or a stranger would.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, describe, it } from 'node:test';
import { devHealthUrl, findDevStack } from './dev-stack.mjs';

/** Serves `body` as JSON on /health of a free loopback port; resolves to the /health URL. */
async function serving(status, body) {
  const server = http.createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  after(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/health`;
}

describe('devHealthUrl', () => {
  it('looks where the launcher looks: HOST and PORT, 127.0.0.1:3000 by default', () => {
    assert.equal(devHealthUrl({}), 'http://127.0.0.1:3000/health');
    assert.equal(devHealthUrl({ PORT: '4100' }), 'http://127.0.0.1:4100/health');
    assert.equal(devHealthUrl({ HOST: '0.0.0.0', PORT: '4100' }), 'http://127.0.0.1:4100/health');
    assert.equal(devHealthUrl({ HOST: '::1' }), 'http://[::1]:3000/health');
  });

  it('looks nowhere when the agent is sent elsewhere, or PORT is no port', () => {
    assert.equal(devHealthUrl({ MCP_SERVER_URL: 'http://example.test/mcp' }), undefined);
    assert.equal(devHealthUrl({ MCP_SERVERS_CONFIG: 'servers.json' }), undefined);
    assert.equal(devHealthUrl({ PORT: 'eighty' }), undefined);
  });
});

describe('findDevStack', () => {
  it('finds a reloading dev server, with when it started', async () => {
    const url = await serving(200, { status: 'ok', uptimeSeconds: 60, dev: { reloading: true } });
    const found = await findDevStack(url);
    assert.equal(found?.url, url.replace(/\/health$/, ''));
    assert.ok(Math.abs((found?.startedAt ?? 0) - (Date.now() - 60_000)) < 5_000);
  });

  it('finds none at a shipped server, a stranger, an error, or a closed port', async () => {
    assert.equal(await findDevStack(await serving(200, { status: 'ok', uptimeSeconds: 5 })), undefined);
    assert.equal(await findDevStack(await serving(200, { dev: { reloading: 'yes' } })), undefined);
    assert.equal(await findDevStack(await serving(500, { dev: { reloading: true } })), undefined);
    assert.equal(await findDevStack('http://127.0.0.1:1/health'), undefined);
    assert.equal(await findDevStack(undefined), undefined);
  });
});
