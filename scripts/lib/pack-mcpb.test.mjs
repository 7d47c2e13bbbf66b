// @ts-check
// Tests of scripts/pack-mcpb.mjs (`pnpm pack:mcpb`); run with `node --test scripts/lib/`. Needs the
// built server (`pnpm build`). Packs into a temp folder with the real script, checks the bundle with
// the official CLI (`mcpb info`, `mcpb unpack`, `mcpb validate`), then starts the unpacked server the
// way Claude Desktop would: the manifest's mcp_config, resolved by the package's own
// getMcpConfigForManifest, run from an empty folder with `node` alone on PATH and no other
// environment but the few variables the SDK's stdio transport passes on, so nothing of the repository
// (node_modules, dist, adr) can stand in for a missing file. The client is the SDK's, as in a host.
// It also holds doc/sharing.md's quote of the manifest (the JSON block under its checked-by marker) to
// the manifest packed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { BUNDLE_NAME, connectStdio, launchConfig, MCPB_CLI, minimalEnv } from '../pack-mcpb.mjs';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PACKER = path.join(ROOT, 'scripts/pack-mcpb.mjs');
/** Packing starts the server once; on a busy 2-core machine the whole script takes a few seconds. */
const PACK_TIMEOUT_MS = 120_000;
const CLI_TIMEOUT_MS = 60_000;
const DOC = path.join(ROOT, 'doc/sharing.md');
const DOC_QUOTE = /<!-- checked-by: scripts\/lib\/pack-mcpb\.test\.mjs -->\n```json\n([\s\S]*?)\n```/;

/** `mcpb <args>`: the package's CLI with this Node. Rejects on a non-zero exit or after the timeout. */
function mcpb(...args) {
  return run(process.execPath, [MCPB_CLI, ...args], { timeout: CLI_TIMEOUT_MS, encoding: 'utf8' });
}

/** Fails unless every field of `quoted` is in `actual` with the same value (arrays whole), at any depth. */
function assertQuoted(quoted, actual, where = 'manifest') {
  if (quoted === null || typeof quoted !== 'object' || Array.isArray(quoted)) {
    assert.deepEqual(actual, quoted, `${where} differs from the quote`);
    return;
  }
  assert.equal(typeof actual, 'object', `${where} is not an object in the manifest`);
  for (const [key, value] of Object.entries(quoted)) assertQuoted(value, actual?.[key], `${where}.${key}`);
}

/** A tools/call that must succeed; returns its structuredContent. */
async function callTool(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, false, `${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

describe('pnpm pack:mcpb', { timeout: 4 * PACK_TIMEOUT_MS }, () => {
  let tmp;
  let out;
  let bundle;
  let unpacked;
  let manifest;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pack-mcpb-test-'));
    out = await run(process.execPath, [PACKER, '--out', path.join(tmp, 'out')], {
      cwd: ROOT,
      timeout: PACK_TIMEOUT_MS,
      encoding: 'utf8',
    });
    bundle = out.stdout.trimEnd().split('\n').at(-1);
    unpacked = path.join(tmp, 'unpacked');
    await mcpb('unpack', bundle, unpacked);
    manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
  });

  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("prints the bundle's path as the last line of stdout", () => {
    const { version } = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'services/mcp-server/package.json'), 'utf8'),
    );
    assert.equal(bundle, path.join(tmp, 'out', `${BUNDLE_NAME}-${version}.mcpb`));
    assert.ok(fs.statSync(bundle).size > 0);
  });

  it('is accepted by mcpb validate and mcpb info', async () => {
    const validate = await mcpb('validate', path.join(unpacked, 'manifest.json'));
    assert.match(validate.stdout, /Manifest schema validation passes!/);
    const info = await mcpb('info', bundle);
    assert.match(info.stdout, new RegExp(`File: ${BUNDLE_NAME}-[\\w.-]+\\.mcpb`));
  });

  it('is what doc/sharing.md quotes of its manifest', () => {
    const quote = DOC_QUOTE.exec(fs.readFileSync(DOC, 'utf8'));
    assert.ok(
      quote,
      'doc/sharing.md has a ```json block under <!-- checked-by: scripts/lib/pack-mcpb.test.mjs -->',
    );
    assertQuoted(JSON.parse(quote[1] ?? ''), manifest);
  });

  it('asks for the data folder and the weather provider, and starts nothing without a data folder', async () => {
    const { data_dir: dataDir, weather_provider: provider } = manifest.user_config;
    assert.deepEqual([dataDir.type, dataDir.required, dataDir.default], ['directory', true, undefined]);
    assert.deepEqual([provider.type, provider.default], ['string', 'offline']);
    assert.equal(await launchConfig(manifest, { bundleDir: unpacked, userConfig: {}, home: tmp }), undefined);
  });

  it('starts over stdio exactly as its mcp_config says, and serves tools, views, ADRs, skills and tasks', async () => {
    const dataDir = path.join(tmp, 'data');
    const home = path.join(tmp, 'home');
    const elsewhere = path.join(tmp, 'elsewhere'); // the working directory: neither the repo nor the bundle
    for (const dir of [dataDir, home, elsewhere]) fs.mkdirSync(dir);
    // What Claude Desktop resolves after the user picked a data folder and kept the default weather.
    const config = await launchConfig(manifest, {
      bundleDir: unpacked,
      userConfig: { data_dir: dataDir },
      home,
    });
    assert.ok(config, "the manifest's mcp_config resolves once a data folder is given");
    assert.equal(config.command, 'node');
    assert.deepEqual(config.args, [`${unpacked}/${manifest.server.entry_point}`, '--stdio']);
    assert.deepEqual(config.env, {
      WEATHER_PROVIDER: 'offline',
      DATA_DIR: dataDir,
      OTEL_SDK_DISABLED: 'true',
    });

    const { client, stderr } = await connectStdio({
      command: config.command,
      args: config.args,
      env: { ...minimalEnv(home), ...config.env },
      cwd: elsewhere,
    });
    try {
      assert.equal(client.getServerVersion()?.version, manifest.version);

      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      for (const name of ['get_weather', 'calculate', 'add_task', 'list_tasks', 'get_time']) {
        assert.ok(names.includes(name), `tools/list lacks ${name}: ${names.join(', ')}`);
      }
      // The manifest lists what the model is offered: every tool but the views' own.
      const forModel = tools.filter(
        (tool) =>
          /** @type {{ ui?: { visibility?: string[] } } | undefined} */ (
            tool._meta
          )?.ui?.visibility?.includes('model') ?? true,
      );
      assert.deepEqual(
        manifest.tools.map((tool) => tool.name),
        forModel.map((tool) => tool.name),
      );

      // Each needs a part of the bundle: the mathjs chunk, the offline dataset, the SQLite WebAssembly.
      assert.equal((await callTool(client, 'calculate', { expression: '6 * 7' })).result, 42);
      assert.equal((await callTool(client, 'get_weather', { location: 'Oslo' })).place.name, 'Oslo');
      const added = await callTool(client, 'add_task', { title: 'Share the bundle' });
      assert.equal(added.task.title, 'Share the bundle');
      assert.ok(fs.existsSync(path.join(dataDir, 'tasks.db')), 'the task list is in the chosen data folder');

      // Files read at run time: the views' HTML, the ADRs and the skills.
      const view = await client.readResource({ uri: 'ui://weather/forecast' });
      const [content] = view.contents;
      assert.ok(content && 'text' in content, 'the view is read as text');
      assert.match(content.text, /<html/);
      const { resources } = await client.listResources();
      assert.ok(
        resources.some((resource) => resource.uri.startsWith('adr://')),
        'resources/list has the ADRs',
      );
      // The skills folder, read at start from beside dist/ (src/skills/catalogue.ts).
      const { skills } = await new SkillsClient(client).list();
      assert.ok(
        skills.some((skill) => skill.uri === 'skill://add-a-tool/SKILL.md'),
        'skills/list has add-a-tool',
      );
      // Node's own warnings, e.g. [MODULE_TYPELESS_PACKAGE_JSON] when the server's package.json lost its "type".
      assert.doesNotMatch(stderr(), /\(node:\d+\).*Warning/);
    } finally {
      await client.close();
    }
  });
});
