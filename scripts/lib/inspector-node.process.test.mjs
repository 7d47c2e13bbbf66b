// @ts-check
// `pnpm inspector` run as a participant types it, with the network shut: npm offline, every proxy on
// a closed local port, and an `npx` first on PATH that only records that it was started. Its CLI mode
// lists the catalogue's tools over stdio, and its web UI answers on the port the test gives it.
// Needs the built MCP server (`pnpm build`); run with `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort, freePorts } from '@mcp-workshop/shared/processes';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(ROOT, 'services/mcp-server/dist/index.js');
/** A safety net for a cold start on a loaded machine, not a bound on how fast it should be. */
const RUN_TIMEOUT_MS = 120_000;

let scratch;
let offlineEnv;

before(async () => {
  assert.ok(fs.existsSync(SERVER), `${SERVER} is missing: run \`pnpm build\` first`);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'inspector-offline-'));
  const bin = path.join(scratch, 'bin');
  fs.mkdirSync(bin);
  // A tripwire, not a stand-in: any npx the launcher starts leaves a line here and fails.
  for (const name of ['npx', 'npm']) {
    fs.writeFileSync(
      path.join(bin, name),
      `#!/bin/sh\necho "${name} $*" >> "${path.join(scratch, 'spawned.log')}"\nexit 97\n`,
      { mode: 0o755 },
    );
  }
  const closed = `http://127.0.0.1:${await freePort()}`;
  offlineEnv = {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    npm_config_offline: 'true',
    npm_config_registry: `${closed}/`,
    HTTP_PROXY: closed,
    HTTPS_PROXY: closed,
    http_proxy: closed,
    https_proxy: closed,
    NO_PROXY: '',
    no_proxy: '',
    // The Inspector keeps its settings here, not in the real home.
    HOME: scratch,
    MCP_STORAGE_DIR: path.join(scratch, 'storage'),
  };
});

after(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

function spawnedTools() {
  const log = path.join(scratch, 'spawned.log');
  return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [];
}

/**
 * `pnpm -s inspector …` from the repository root, in a process group of its own so that a signal
 * reaches pnpm and the Inspector together, as Ctrl-C in a terminal does.
 */
function runInspector(args, env = offlineEnv) {
  const child = spawn('pnpm', ['-s', 'inspector', ...args], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let done = false;
  exited.then(() => {
    done = true;
  });
  const signal = (name) => {
    if (!done && child.pid) process.kill(-child.pid, name);
  };
  return { child, exited, signal, output: () => ({ stdout, stderr }) };
}

/** Kills the run's whole group when the test ends early or hangs, so nothing outlives it. */
function killWhenDone(t, run) {
  const timer = setTimeout(() => run.signal('SIGKILL'), RUN_TIMEOUT_MS);
  t.after(async () => {
    clearTimeout(timer);
    run.signal('SIGKILL');
    await run.exited;
  });
}

describe('pnpm inspector, offline', () => {
  it('lists the catalogue server’s tools in CLI mode without starting npx', async (t) => {
    const run = runInspector([
      '--cli',
      'node',
      SERVER,
      '--stdio',
      '-e',
      `DATA_DIR=${path.join(scratch, 'data')}`,
      '-e',
      'LOG_LEVEL=warn',
      '--method',
      'tools/list',
    ]);
    killWhenDone(t, run);
    const { code } = await run.exited;
    const { stdout, stderr } = run.output();
    assert.deepEqual(spawnedTools(), [], 'pnpm inspector started npx or npm');
    assert.equal(code, 0, stderr);
    const { tools } = JSON.parse(stdout);
    assert.ok(tools.length > 0, stdout);
    for (const tool of tools) {
      assert.equal(typeof tool.name, 'string');
      assert.equal(tool.inputSchema?.type, 'object', tool.name);
    }
  });

  it('serves its web UI on CLIENT_PORT, then stops on SIGINT', async (t) => {
    const [clientPort, sandboxPort] = await freePorts(2);
    const run = runInspector([], {
      ...offlineEnv,
      CLIENT_PORT: String(clientPort),
      MCP_SANDBOX_PORT: String(sandboxPort),
      MCP_AUTO_OPEN_ENABLED: 'false',
    });
    killWhenDone(t, run);
    // The launcher prints its address once the server listens: wait for that line, not a while.
    const url = await new Promise((resolve, reject) => {
      const look = () => {
        const match = /http:\/\/127\.0\.0\.1:(\d+)\S*/.exec(run.output().stdout);
        if (match) resolve(match[0]);
      };
      run.child.stdout.on('data', look);
      run.exited.then(({ code }) =>
        reject(new Error(`exited ${code} before listening: ${run.output().stderr}`)),
      );
    });
    assert.equal(new URL(url).port, String(clientPort));
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /<html/i);
    assert.deepEqual(spawnedTools(), [], 'pnpm inspector started npx or npm');

    run.signal('SIGINT');
    const { code, signal } = await run.exited;
    assert.ok(code === 0 || code === 130 || signal === 'SIGINT', `exit ${code} ${signal}`);
  });
});
