// @ts-check
// Tests of scripts/lib/secure-stack.mjs (the plan of `pnpm start:secure`) and two real runs of
// scripts/start-secure.mjs on ports the test picks; run with `node --test scripts/lib/`. The real
// runs need the built services (`pnpm build`).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort, freePorts, stopChild } from '@mcp-workshop/shared/processes';
import {
  banner,
  busyPorts,
  busyPortsMessage,
  DEFAULT_PORTS,
  PlanError,
  planSecureStack,
  serviceEnv,
} from './secure-stack.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPT = path.join(ROOT, 'scripts/start-secure.mjs');
/** A cold start of four services, the agent's sign-in included. */
const START_TIMEOUT_MS = 60_000;

const byName = (plan) => Object.fromEntries(plan.services.map((service) => [service.name, service]));

/** Four distinct ports nothing listens on, as the port variables. */
async function unusedPortVariables() {
  const [AUTH_PORT, PORT, AGENT_PORT, DEMO_MODEL_PORT] = (await freePorts(4)).map(String);
  return { AUTH_PORT, PORT, AGENT_PORT, DEMO_MODEL_PORT };
}

async function occupy(port) {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  return server;
}

describe('planSecureStack', () => {
  it("wires the default stack to module 11's ports", () => {
    const plan = planSecureStack({});
    assert.deepEqual(plan.ports, DEFAULT_PORTS);
    assert.equal(plan.issuer, 'http://127.0.0.1:3003');
    assert.equal(plan.resource, 'http://127.0.0.1:3000/mcp');
    const { 'auth-server': auth, 'mcp-server': server, agent } = byName(plan);
    assert.equal(auth.env.MCP_RESOURCE_URL, 'http://127.0.0.1:3000/mcp');
    assert.equal(server.env.MCP_AUTH_ISSUER, 'http://127.0.0.1:3003');
    assert.equal(agent.env.MCP_SERVER_URL, 'http://127.0.0.1:3000/mcp');
    assert.equal(agent.env.DEMO_MODEL_URL, 'http://127.0.0.1:3002/v1');
  });

  it('moves every URL that reaches a service along with its port variable', () => {
    const plan = planSecureStack({
      AUTH_PORT: '3113',
      PORT: '3110',
      AGENT_PORT: '3111',
      DEMO_MODEL_PORT: '3112',
      AGENT_VIEW_SANDBOX_PORT: '3114',
    });
    const { 'auth-server': auth, 'mcp-server': server, 'demo-model': model, agent } = byName(plan);
    assert.deepEqual(auth.env, {
      AUTH_HOST: '127.0.0.1',
      AUTH_PORT: '3113',
      AUTH_ISSUER: 'http://127.0.0.1:3113',
      MCP_RESOURCE_URL: 'http://127.0.0.1:3110/mcp',
    });
    assert.deepEqual(server.env, {
      HOST: '127.0.0.1',
      PORT: '3110',
      MCP_AUTH_ISSUER: 'http://127.0.0.1:3113',
      MCP_RESOURCE_URL: 'http://127.0.0.1:3110/mcp',
    });
    assert.deepEqual(model.env, { DEMO_MODEL_HOST: '127.0.0.1', DEMO_MODEL_PORT: '3112' });
    assert.equal(agent.env.AGENT_PORT, '3111');
    // The agent's second port moves too: beside `pnpm start`, 3004 is taken by its agent.
    assert.equal(agent.env.AGENT_VIEW_SANDBOX_PORT, '3114');
    assert.equal(agent.env.MCP_SERVER_URL, 'http://127.0.0.1:3110/mcp');
    assert.equal(agent.env.MCP_OAUTH_ISSUER, 'http://127.0.0.1:3113');
    assert.equal(agent.env.DEMO_MODEL_URL, 'http://127.0.0.1:3112/v1');
    assert.deepEqual(
      plan.services.map((service) => service.health),
      [3113, 3110, 3112, 3111].map((port) => `http://127.0.0.1:${port}/health`),
    );
    const text = banner(plan);
    for (const url of ['http://127.0.0.1:3111', 'http://127.0.0.1:3113', 'http://127.0.0.1:3110/mcp']) {
      assert.ok(text.includes(url), `the banner names ${url}`);
    }
    assert.doesNotMatch(text, /:300\d/);
  });

  it('refuses an exported wiring variable that points elsewhere, and says what to do', () => {
    assert.throws(
      () => planSecureStack({ PORT: '3110', MCP_SERVER_URL: 'http://127.0.0.1:3000/mcp' }),
      (error) =>
        error instanceof PlanError &&
        error.message.includes(
          'MCP_SERVER_URL=http://127.0.0.1:3000/mcp (start:secure would set http://127.0.0.1:3110/mcp)',
        ) &&
        error.message.includes('unset MCP_SERVER_URL'),
    );
    assert.throws(() => planSecureStack({ DEMO_MODEL_URL: 'http://127.0.0.1:9/v1' }), /DEMO_MODEL_URL/);
    assert.throws(() => planSecureStack({ HOST: '0.0.0.0' }), /HOST=0\.0\.0\.0/);
    // The same value as the plan's is no contradiction.
    assert.doesNotThrow(() => planSecureStack({ MCP_RESOURCE_URL: 'http://127.0.0.1:3000/mcp' }));
  });

  it('refuses ports that are not ports, and two services on one port', () => {
    for (const bad of ['0', '65536', 'abc', '30.5', '-1']) {
      assert.throws(
        () => planSecureStack({ PORT: bad }),
        new RegExp(`PORT=${bad.replace('.', '\\.')} is not a port`),
      );
    }
    assert.throws(() => planSecureStack({ AGENT_PORT: '3000' }), /PORT and AGENT_PORT are both 3000/);
  });

  it('gives each service your environment, with its wiring on top', () => {
    const { agent } = byName(planSecureStack({}));
    const env = serviceEnv(agent, { OPENAI_API_KEY: 'sk-test', MCP_SERVER_URL: 'http://elsewhere/mcp' });
    assert.equal(env.OPENAI_API_KEY, 'sk-test');
    assert.equal(env.MCP_SERVER_URL, 'http://127.0.0.1:3000/mcp');
  });

  it('names both people and how they sign in, with your passwords unsaid', () => {
    const plan = planSecureStack({});
    assert.match(banner(plan), /demo \(password demo\) and guest \(password guest\)/);
    assert.match(
      banner(plan),
      /MCP_OAUTH_CLIENT_ID=workshop-chat MCP_OAUTH_ISSUER=http:\/\/127\.0\.0\.1:3003 pnpm chat/,
    );
    const own = banner(plan, { AUTH_DEMO_PASSWORD: 'hunter2hunter2' });
    assert.match(own, /demo \(password your AUTH_DEMO_PASSWORD\)/);
    assert.doesNotMatch(own, /hunter2/);
  });
});

describe('busyPorts', () => {
  it('finds the ports something already listens on, and the message says to stop pnpm start', async () => {
    const ports = await unusedPortVariables();
    const holder = await occupy(Number(ports.PORT));
    try {
      const plan = planSecureStack(ports);
      const busy = await busyPorts(plan);
      assert.deepEqual(busy, ['PORT']);
      const message = busyPortsMessage(plan, busy);
      assert.match(message, new RegExp(`${ports.PORT} \\(PORT, the MCP server\\)`));
      assert.match(message, /`pnpm start` \(module 1\)/);
      assert.match(
        message,
        /AUTH_PORT=3113 PORT=3110 AGENT_PORT=3111 DEMO_MODEL_PORT=3112 AGENT_VIEW_SANDBOX_PORT=3114 pnpm start:secure/,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
    assert.deepEqual(await busyPorts(planSecureStack(ports)), []);
  });
});

/** Runs start-secure.mjs; `until(stdout)` says when to stop reading. Bounded by START_TIMEOUT_MS. */
function runScript(env) {
  const child = spawn(process.execPath, [SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
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
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    /** Resolves when stdout contains `text`; rejects if the script exits first or in time. */
    async waitForStdout(text) {
      const deadline = Date.now() + START_TIMEOUT_MS;
      let gone = false;
      exited.then(() => {
        gone = true;
      });
      while (!stdout.includes(text)) {
        if (gone) throw new Error(`start-secure exited before printing ${text}:\n${stdout}\n${stderr}`);
        if (Date.now() > deadline) throw new Error(`no ${text} within ${START_TIMEOUT_MS} ms:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

describe('start-secure.mjs', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-secure-test-'));
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('refuses before starting anything, and before any banner, when a port is in use', async () => {
    const ports = await unusedPortVariables();
    const holder = await occupy(Number(ports.AGENT_PORT));
    try {
      const run = runScript({ ...ports, DATA_DIR: dataDir });
      const code = await Promise.race([
        run.exited,
        new Promise((resolve) => setTimeout(() => resolve('timeout'), 15_000)),
      ]);
      if (code === 'timeout') await stopChild(run.child, { graceMs: 1_000 });
      const { stdout, stderr } = run.output();
      assert.equal(code, 2);
      assert.doesNotMatch(stdout, /Sign-in is on/);
      assert.match(
        stderr,
        new RegExp(
          `start:secure did not start: these ports are in use:\\n  ${ports.AGENT_PORT} \\(AGENT_PORT, the agent\\)`,
        ),
      );
      // Nothing was started: the other three ports are still free.
      assert.deepEqual(
        await busyPorts(planSecureStack({ ...ports, AGENT_PORT: String(await freePort()) })),
        [],
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('starts the stack on the ports it is given, wires the agent to the secured server, and names them', async () => {
    const ports = await unusedPortVariables();
    const issuer = `http://127.0.0.1:${ports.AUTH_PORT}`;
    const resource = `http://127.0.0.1:${ports.PORT}/mcp`;
    const agent = `http://127.0.0.1:${ports.AGENT_PORT}`;
    const run = runScript({ ...ports, DATA_DIR: dataDir, AGENT_API_TOKEN: '' });
    try {
      await run.waitForStdout('Ctrl-C stops everything.');
      const { stdout } = run.output();
      assert.match(stdout, new RegExp(`Open ${agent} for the chat`));
      assert.ok(stdout.includes(`authorization server  ${issuer}`));
      assert.ok(stdout.includes(`MCP server            ${resource}`));
      assert.doesNotMatch(stdout, /127\.0\.0\.1:300\d/);

      // The MCP server on PORT has sign-in on, with the issuer on AUTH_PORT.
      const challenge = await fetch(resource, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      assert.equal(challenge.status, 401);
      const metadata = /** @type {{ resource: string, authorization_servers: string[] }} */ (
        await (await fetch(`http://127.0.0.1:${ports.PORT}/.well-known/oauth-protected-resource/mcp`)).json()
      );
      assert.equal(metadata.resource, resource);
      assert.deepEqual(metadata.authorization_servers, [issuer]);

      // The issuer issues tokens for that resource, and the server takes them.
      const token = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('workshop-reader:workshop-reader-secret').toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'tasks:read' }),
      });
      assert.equal(token.status, 200);
      const { access_token: accessToken } = /** @type {{ access_token: string }} */ (await token.json());
      const listed = await fetch(`http://127.0.0.1:${ports.PORT}/tools/list_tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(listed.status, 200);

      // The agent is ready, connected to that server and signed in as the machine client.
      const health = /** @type {{ ready: boolean, servers: unknown }} */ (
        await (await fetch(`${agent}/health`)).json()
      );
      assert.equal(health.ready, true);
      assert.ok(JSON.stringify(health.servers).includes(resource), JSON.stringify(health.servers));
      const status = /** @type {{ signedIn: unknown }} */ (await (await fetch(`${agent}/api/status`)).json());
      assert.deepEqual(status.signedIn, [{ server: 'workshop', user: 'workshop-agent', kind: 'client' }]);
    } finally {
      run.child.kill('SIGINT');
      const code = await Promise.race([
        run.exited,
        new Promise((resolve) => setTimeout(() => resolve('timeout'), 15_000)),
      ]);
      if (code === 'timeout') await stopChild(run.child, { graceMs: 1_000 });
      assert.equal(code, 0);
    }
    // Ctrl-C stopped all four.
    assert.deepEqual(await busyPorts(planSecureStack(ports)), []);
  });
});
