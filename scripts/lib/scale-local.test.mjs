// @ts-check
// Tests of scripts/lib/scale-local.mjs and of what scripts/scale-local.mjs refuses before it starts
// anything; run with `node --test scripts/lib/`. The real run (Postgres, replicas, HAProxy) is
// services/scale-e2e/src/scale-local.e2e.test.ts.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '@mcp-workshop/shared/processes';
import { findHaproxy } from '../../dev/test-infra/dist/index.js';
import {
  DEFAULT_LB_PORT,
  DEFAULT_REPLICA_PORTS,
  expectedLocalConfig,
  LOCAL_CONFIG,
  localHaproxyConfig,
  parseScaleArgs,
  redactUrl,
  requireDatabaseUrl,
  SHIPPED_CONFIG,
  UsageError,
} from './scale-local.mjs';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../scale-local.mjs');

function runCli(args, env) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { encoding: 'utf8', timeout: 20_000, env: { PATH: process.env.PATH, ...env } },
      (error, stdout, stderr) => resolve({ status: error ? (error.code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('parseScaleArgs', () => {
  it('defaults to HAProxy on 3020 and three replicas on 3100-3102, and reads other ports', () => {
    assert.deepEqual(parseScaleArgs([]), {
      writeConfig: false,
      lbPort: DEFAULT_LB_PORT,
      replicaPorts: DEFAULT_REPLICA_PORTS,
    });
    assert.deepEqual(parseScaleArgs(['--port', '4000', '--replica-ports', '4001,4002']), {
      writeConfig: false,
      lbPort: 4000,
      replicaPorts: [4001, 4002],
    });
    assert.deepEqual(parseScaleArgs(['--write-config']), { writeConfig: true });
  });

  it('refuses bad ports, one replica, too many, a port named twice and unknown arguments', () => {
    const refused = (argv, message) =>
      assert.throws(
        () => parseScaleArgs(argv),
        (e) => e instanceof UsageError && message.test(e.message),
      );
    refused(['--port'], /--port needs a port/);
    refused(['--port', '0'], /--port needs a port/);
    refused(['--port', '70000'], /--port needs a port/);
    refused(['--port', '30.5'], /--port needs a port/);
    refused(['--port', '-1'], /--port needs a port/);
    refused(['--replica-ports'], /needs a list/);
    refused(['--replica-ports', '3100,,3101'], /--replica-ports needs a port/);
    refused(['--replica-ports', '3100'], /2 to 8 ports, not 1/);
    refused(['--replica-ports', Array.from({ length: 9 }, (_, i) => 4000 + i).join(',')], /not 9/);
    refused(['--replica-ports', '3100,3100'], /port 3100 is named twice/);
    refused(['--port', '3101'], /port 3101 is named twice/);
    refused(['--write-config', '--port', '1'], /unknown argument --write-config/);
    refused(['--replicas', '3'], /unknown argument --replicas/);
  });
});

describe('requireDatabaseUrl and redactUrl', () => {
  it('accepts a postgres URL and never prints its password', () => {
    assert.equal(
      requireDatabaseUrl('postgres://u:p@127.0.0.1:5433/tasks'),
      'postgres://u:p@127.0.0.1:5433/tasks',
    );
    assert.equal(
      redactUrl('postgres://u:secret@127.0.0.1:5433/tasks'),
      'postgres://u:***@127.0.0.1:5433/tasks',
    );
    assert.equal(redactUrl('no url here'), '(not a URL)');
  });

  it('refuses a missing, empty, malformed or non-Postgres DATABASE_URL, without echoing a password', () => {
    assert.throws(() => requireDatabaseUrl(undefined), /DATABASE_URL is not set/);
    assert.throws(() => requireDatabaseUrl(''), /DATABASE_URL is not set/);
    assert.throws(() => requireDatabaseUrl('tasks.db'), /must be a postgres:\/\/ URL, not \(not a URL\)/);
    assert.throws(
      () => requireDatabaseUrl('mysql://u:secret@127.0.0.1/tasks'),
      (e) => e instanceof Error && /must be a postgres/.test(e.message) && !e.message.includes('secret'),
    );
  });
});

describe('deploy/haproxy/haproxy.local.cfg', () => {
  it('is haproxy.cfg with only the bind and server lines moved to loopback (regenerate: node scripts/scale-local.mjs --write-config)', () => {
    assert.equal(fs.readFileSync(LOCAL_CONFIG, 'utf8'), expectedLocalConfig());
    const shipped = fs.readFileSync(SHIPPED_CONFIG, 'utf8').split('\n');
    const local = fs.readFileSync(LOCAL_CONFIG, 'utf8').split('\n');
    const settings = (lines) => lines.filter((line) => !/^\s*(#|bind\s|server\s|$)/.test(line));
    assert.deepEqual(settings(local), settings(shipped));
    assert.deepEqual(
      local.filter((line) => /^\s*(bind|server)\s/.test(line)).map((line) => line.trim()),
      [
        'bind 127.0.0.1:3020',
        ...['mcp-servers', 'mcp-live'].flatMap(() => [
          'server replica-1 127.0.0.1:3100 id 1',
          'server replica-2 127.0.0.1:3101 id 2',
          'server replica-3 127.0.0.1:3102 id 3',
        ]),
      ],
    );
  });

  it('is a configuration HAProxy accepts (haproxy -c), where HAProxy is installed', (t) => {
    const haproxy = findHaproxy();
    if (!haproxy) {
      if (process.env.CI === 'true') assert.fail('CI installs HAProxy; it is missing');
      t.skip('HAProxy is not installed (sudo apt-get install -y haproxy)');
      return;
    }
    const out = execFileSync(haproxy, ['-c', '-f', LOCAL_CONFIG], { encoding: 'utf8', stdio: 'pipe' });
    assert.match(out, /Configuration file is valid/);
  });

  it('follows a change of haproxy.cfg: another template gives other settings', () => {
    const template = fs
      .readFileSync(SHIPPED_CONFIG, 'utf8')
      .replace('timeout connect 2s', 'timeout connect 9s');
    const changed = localHaproxyConfig(template, DEFAULT_LB_PORT, DEFAULT_REPLICA_PORTS);
    assert.notEqual(changed, expectedLocalConfig());
    assert.match(changed, /timeout connect 9s/);
  });
});

describe('scripts/scale-local.mjs refuses before starting anything', () => {
  it('exits 2 without DATABASE_URL, or with a non-Postgres one', async () => {
    const none = await runCli([], {});
    assert.equal(none.status, 2);
    assert.match(none.stderr, /DATABASE_URL is not set[\s\S]*usage: node scripts\/scale-local\.mjs/);
    const sqlite = await runCli([], { DATABASE_URL: 'file:tasks.db' });
    assert.equal(sqlite.status, 2);
    assert.match(sqlite.stderr, /must be a postgres:\/\/ URL/);
  });

  it('exits 2 on a bad command line', async () => {
    const run = await runCli(['--replica-ports', '3100'], { DATABASE_URL: 'postgres://u@127.0.0.1:1/x' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /2 to 8 ports, not 1/);
  });

  it('exits 1 naming a port that is already in use, and starts no replica', async () => {
    const busy = net.createServer();
    await new Promise((resolve) => busy.listen(0, '127.0.0.1', () => resolve(undefined)));
    const taken = /** @type {import('node:net').AddressInfo} */ (busy.address()).port;
    try {
      const run = await runCli(
        ['--port', String(await freePort()), '--replica-ports', `${await freePort()},${taken}`],
        {
          DATABASE_URL: 'postgres://u@127.0.0.1:1/x',
        },
      );
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, new RegExp(`127\\.0\\.0\\.1:${taken} is in use`));
      assert.doesNotMatch(run.stdout, /starting/);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
