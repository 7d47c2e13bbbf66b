// @ts-check
// Tests of scripts/lib/doc-stack.mjs; run with `node --test scripts/lib/`. Each "service" is a tiny
// node:http server in a temporary folder, on a port the OS picked, so nothing of the real stack runs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { freePort, freePorts } from '@mcp-workshop/shared/processes';
import { startStack } from './doc-stack.mjs';

const cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A folder holding dist/index.js: `source` as the service's entry. */
function serviceDir(root, name, source) {
  fs.mkdirSync(path.join(root, name, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(root, name, 'dist', 'index.js'), source);
  return name;
}

function tempRoot() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-stack-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

const healthServer = (port) =>
  `require('node:http').createServer((req, res) => res.end(JSON.stringify({ dataDir: process.env.DATA_DIR }))).listen(${port}, '127.0.0.1');`;

/**
 * What the test service's /health answers (its DATA_DIR), or undefined when nothing answers.
 * @param {string} url
 * @returns {Promise<{ dataDir: string } | undefined>}
 */
async function status(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    return /** @type {Promise<{ dataDir: string }>} */ (response.json());
  } catch {
    return undefined;
  }
}

describe('startStack', () => {
  it('starts each service, waits until it answers, gives it an empty DATA_DIR, and stops it', async () => {
    const root = tempRoot();
    const port = await freePort();
    const health = `http://127.0.0.1:${port}/health`;
    const dir = serviceDir(root, 'svc', `setTimeout(() => { ${healthServer(port)} }, 300);`);
    const stack = await startStack(root, [{ name: 'svc', dir, health }]);
    const answer = await status(health);
    assert.ok(answer, 'the service answers once startStack resolves');
    assert.ok(fs.existsSync(answer.dataDir) && fs.readdirSync(answer.dataDir).length === 0);
    stack.stop();
    for (let i = 0; i < 50 && (await status(health)); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await status(health), undefined, 'stopped: nothing answers any more');
    assert.equal(fs.existsSync(answer.dataDir), false, 'the DATA_DIR is removed');
  });

  it('waits through 503 until the service is ready, as the agent answers while it connects', async () => {
    const root = tempRoot();
    const port = await freePort();
    const health = `http://127.0.0.1:${port}/health`;
    // Listens at once, answers 503 for its first second, then 200.
    const source = `const started = Date.now(); require('node:http').createServer((req, res) => { res.statusCode = Date.now() - started < 1000 ? 503 : 200; res.end('{}'); }).listen(${port}, '127.0.0.1');`;
    const dir = serviceDir(root, 'svc', source);
    const stack = await startStack(root, [{ name: 'svc', dir, health }]);
    cleanups.push(() => stack.stop());
    const response = await fetch(health);
    assert.equal(response.status, 200, 'startStack resolved while the service still said 503');
  });

  it('refuses when something already answers on a service port, and starts nothing', async () => {
    const root = tempRoot();
    const squatter = http.createServer((_req, res) => res.end('{}'));
    await new Promise((resolve) => squatter.listen(0, '127.0.0.1', () => resolve(undefined)));
    cleanups.push(() => new Promise((resolve) => squatter.close(resolve)));
    const health = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (squatter.address()).port}/health`;
    const marker = path.join(root, 'started');
    const dir = serviceDir(root, 'svc', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '');`);
    await assert.rejects(startStack(root, [{ name: 'svc', dir, health }]), /already answers at/);
    assert.equal(fs.existsSync(marker), false);
  });

  it('fails with the service stderr when it exits instead of answering, and stops the ones before it', async () => {
    const root = tempRoot();
    const [first, second] = await freePorts(2);
    const services = [
      {
        name: 'ok',
        dir: serviceDir(root, 'ok', healthServer(first)),
        health: `http://127.0.0.1:${first}/health`,
      },
      {
        name: 'broken',
        dir: serviceDir(root, 'broken', "console.error('Invalid environment: PORT'); process.exit(1);"),
        health: `http://127.0.0.1:${second}/health`,
      },
    ];
    await assert.rejects(startStack(root, services), /broken did not answer[\s\S]*Invalid environment: PORT/);
    const firstHealth = services[0]?.health ?? '';
    for (let i = 0; i < 50 && (await status(firstHealth)); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await status(firstHealth), undefined, 'the first service was stopped too');
  });
});
