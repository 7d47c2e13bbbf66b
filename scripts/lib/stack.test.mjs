// @ts-check
// Tests of scripts/lib/stack.mjs, the plan of `pnpm start` and `pnpm dev`; run with `node --test scripts/lib/`.
// The commands themselves run as processes in dev/launcher/src/readme-commands.e2e.test.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { workspacePackages } from './package-boundaries.mjs';
import { browseHost, stackBanner, stackEnv, stackUrls } from './stack.mjs';

const require = createRequire(import.meta.url);

describe('stackUrls', () => {
  it("gives the README's ports when nothing moves them", () => {
    assert.deepEqual(stackUrls({}), {
      mcp: 'http://127.0.0.1:3000/mcp',
      mcpHealth: 'http://127.0.0.1:3000/health',
      chat: 'http://127.0.0.1:3001',
      agentHealth: 'http://127.0.0.1:3001/health',
      agentStatus: 'http://127.0.0.1:3001/api/status',
      sandbox: 'http://127.0.0.1:3004',
      model: 'http://127.0.0.1:3002/v1',
      modelHealth: 'http://127.0.0.1:3002/health',
    });
  });

  it('follows the port variables, reads empty ones as unset, and takes the sandbox port the agent reports', () => {
    const urls = stackUrls(
      { PORT: '3100', AGENT_PORT: '', DEMO_MODEL_PORT: '3102', AGENT_VIEW_SANDBOX_PORT: '0' },
      41234,
    );
    assert.equal(urls.mcp, 'http://127.0.0.1:3100/mcp');
    assert.equal(urls.chat, 'http://127.0.0.1:3001');
    assert.equal(urls.model, 'http://127.0.0.1:3102/v1');
    assert.equal(urls.sandbox, 'http://127.0.0.1:41234');
  });

  it('points a browser at loopback when a service binds every interface', () => {
    assert.equal(browseHost('0.0.0.0'), '127.0.0.1');
    assert.equal(browseHost('::'), '[::1]');
    assert.equal(browseHost('::1'), '[::1]');
    assert.equal(stackUrls({ AGENT_HOST: '0.0.0.0' }).chat, 'http://127.0.0.1:3001');
  });
});

describe('stackEnv', () => {
  it("moves the agent's URLs with the ports it was not told about", () => {
    const env = stackEnv({ PORT: '3100', DEMO_MODEL_PORT: '3102', OTHER: 'kept' });
    assert.equal(env.MCP_SERVER_URL, 'http://127.0.0.1:3100/mcp');
    assert.equal(env.DEMO_MODEL_URL, 'http://127.0.0.1:3102/v1');
    assert.equal(env.OTHER, 'kept');
  });

  it('keeps URLs and a servers file the caller set', () => {
    const env = stackEnv({
      PORT: '3100',
      MCP_SERVER_URL: 'http://example.test/mcp',
      DEMO_MODEL_URL: 'http://m.test/v1',
    });
    assert.equal(env.MCP_SERVER_URL, 'http://example.test/mcp');
    assert.equal(env.DEMO_MODEL_URL, 'http://m.test/v1');
    assert.equal(stackEnv({ MCP_SERVERS_CONFIG: 'servers.json' }).MCP_SERVER_URL, undefined);
  });

  it('gives the agent the most connection attempts it takes, unless the caller chose', () => {
    assert.equal(stackEnv({}).MCP_CONNECT_ATTEMPTS, '30');
    assert.equal(stackEnv({ MCP_CONNECT_ATTEMPTS: '3' }).MCP_CONNECT_ATTEMPTS, '3');
  });
});

describe('stackBanner', () => {
  it('names the page, the server, the sandbox and the model, and the next command', () => {
    const text = stackBanner('start', stackUrls({}));
    assert.match(text, /^The workshop is up \(pnpm start\):$/m);
    assert.match(text, /^ {2}chat page {6}http:\/\/127\.0\.0\.1:3001$/m);
    assert.match(text, /^ {2}MCP server {5}http:\/\/127\.0\.0\.1:3000\/mcp$/m);
    assert.match(text, /^ {2}view sandbox {3}http:\/\/127\.0\.0\.1:3004 /m);
    assert.match(text, /in another terminal: pnpm ask "What's the weather in Paris\?"$/m);
    assert.doesNotMatch(text, /reload/);
    // One short block, not a log line.
    assert.ok(text.trim().split('\n').length <= 8);
    assert.doesNotMatch(text, /^\{/m);
  });

  it('says how to reach moved ports from pnpm ask, and under pnpm dev that saves reload', () => {
    const text = stackBanner('dev', stackUrls({ PORT: '3100' }));
    assert.match(text, /in another terminal: MCP_SERVER_URL=http:\/\/127\.0\.0\.1:3100\/mcp pnpm ask "/);
    assert.match(text, /Saves under services\/mcp-server\/src, views\/ and skills\/ reload the catalogue/);
  });
});

describe("the process tests' place in turbo.json", () => {
  it("has dev/launcher's tests wait for every package's build, so the commands they run build nothing", () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const dry = JSON.parse(
      execFileSync(
        process.execPath,
        [require.resolve('turbo/bin/turbo'), 'run', 'test', '--filter=@mcp-workshop/launcher', '--dry=json'],
        { cwd: root, encoding: 'utf8', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
      ),
    );
    // Everything the test waits for, directly or through another task.
    const direct = new Map(dry.tasks.map((task) => [task.taskId, task.dependencies]));
    const waitsFor = new Set();
    const visit = (id) => {
      for (const dependency of direct.get(id) ?? []) {
        if (!waitsFor.has(dependency)) {
          waitsFor.add(dependency);
          visit(dependency);
        }
      }
    };
    visit('@mcp-workshop/launcher#test');
    const builds = workspacePackages(root)
      .map((dir) => JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')))
      .filter((manifest) => manifest.scripts?.build)
      .map((manifest) => `${manifest.name}#build`);
    assert.ok(builds.length > 10, builds.join(', '));
    assert.deepEqual(
      builds.filter((task) => !waitsFor.has(task)),
      [],
    );
  });
});
