#!/usr/bin/env node
/**
 * `pnpm pack:mcpb [--out DIR]`: packs the MCP server as an MCP Bundle (`.mcpb`), the zip with a
 * `manifest.json` that Claude Desktop installs with a double click (doc/sharing.md). The packing
 * is the official CLI's, `mcpb pack` of `@anthropic-ai/mcpb`; its report goes to stdout, and the
 * last line on stdout is the bundle's path, by default
 * `dist/mcpb/mcp-workshop-<version>.mcpb`. Run `pnpm build` first (`pnpm pack:mcpb` does).
 *
 * The bundle holds what `node dist/index.js --stdio` reads at run time, laid out as in the
 * repository, so every path the server computes from its own files resolves the same:
 *
 *   services/mcp-server/dist/index.js, index.*.cjs   the entry and the rolldown bundle of the server,
 *                                                     host and store (rolldown.config.mjs); no source maps
 *   services/mcp-server/dist/views/*.html            the MCP Apps views (src/resources/views.ts: ../../dist/views/)
 *   services/mcp-server/skills/                       the skills, SKILL.md and the files beside each
 *                                                     (src/skills/catalogue.ts: ../../skills/)
 *   adr/*.md                                          the adr://{slug} resources (src/resources/adr.ts: ../../../../adr/)
 *   services/mcp-server/node_modules/node-sqlite3-wasm
 *                                                     left out of the rolldown bundle, since it reads its .wasm
 *                                                     from its own folder: the copy pnpm installed, with our patch
 *   services/mcp-server/node_modules/@mcp-workshop/task-store/package.json
 *                                                     the package the bundle resolves node-sqlite3-wasm from
 *                                                     (packages/task-store/src/sqlite-wasm.ts); nothing else of it
 *
 * OpenTelemetry is not in the bundle (rolldown leaves it outside, and with its exporters it is tens of
 * MB), so the manifest sets OTEL_SDK_DISABLED=true: an OTLP endpoint in the user's environment cannot
 * make the server load it. Before packing, the staged server is started exactly as the manifest's
 * `mcp_config` says and asked for tools/list, which fills the manifest's `tools`: a bundle that does
 * not start is never written. `scripts/lib/pack-mcpb.test.mjs` unpacks the result and starts it again.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getMcpConfigForManifest } from '@anthropic-ai/mcpb';
import { stopChild } from './lib/processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'services/mcp-server');
const SERVER_DIST = path.join(SERVER, 'dist');
export const DEFAULT_OUT_DIR = path.join(ROOT, 'dist/mcpb');
/** The `mcpb` command (the package's `bin`), run with this Node. */
export const MCPB_CLI = path.join(
  path.dirname(fileURLToPath(import.meta.resolve('@anthropic-ai/mcpb'))),
  'cli/cli.js',
);

/** The bundle's name: its file is `<name>-<version>.mcpb`, and Claude Desktop lists it by `display_name`. */
export const BUNDLE_NAME = 'mcp-workshop';
/** Where the server sits in the bundle: where it sits in the repository (see the header). */
export const SERVER_IN_BUNDLE = 'services/mcp-server';
export const ENTRY_POINT = `${SERVER_IN_BUNDLE}/dist/index.js`;
/** The chunks rolldown writes beside the entry (rolldown.config.mjs: `index.<name>.cjs`). */
const CHUNK = /^index\.[\w.-]+\.cjs$/;
/** The revision the packer and the test speak; the server answers 2025-06-18 onwards and 2026-07-28. */
export const PROTOCOL_VERSION = '2025-11-25';
/** How long one request may take: a cold start of the server on a busy 2-core machine is about 1 s. */
const REQUEST_TIMEOUT_MS = 20_000;

const USAGE = `usage: pnpm pack:mcpb [--out DIR]
  Packs services/mcp-server (built) as an MCP Bundle; prints the bundle's path last.
  --out DIR   where to write <name>-<version>.mcpb (default: dist/mcpb)`;

/** `${user_config.KEY}`: where the host puts the value the user gave for KEY (or its default). */
const userValue = (key) => `\${user_config.${key}}`;

/**
 * The manifest (MANIFEST.md of github.com/anthropics/mcpb, version 0.2, the CLI's default). `tools` is
 * what the server lists to the model; `version` is the server package's.
 */
export function manifestFor({ version, tools = [] }) {
  return {
    manifest_version: '0.2',
    name: BUNDLE_NAME,
    display_name: 'MCP Workshop',
    version,
    description:
      'The workshop MCP server: weather, arithmetic, time zones and a task list. Offline by default.',
    long_description:
      'The MCP server of the mcp-workshop kit, packed with everything it needs. It answers weather ' +
      'questions from a built-in dataset of large cities (or live from Open-Meteo, if you choose it), ' +
      'evaluates arithmetic, tells the time in any time zone and keeps a task list in a SQLite file ' +
      'in the data folder you pick. It also serves the ADRs of the kit as resources, MCP Apps views ' +
      'and a few prompts.',
    author: { name: 'mcp-workshop contributors' },
    license: 'MIT',
    keywords: ['mcp', 'workshop', 'weather', 'calculator', 'tasks'],
    server: {
      type: 'node',
      entry_point: ENTRY_POINT,
      mcp_config: {
        command: 'node',
        args: [`\${__dirname}/${ENTRY_POINT}`, '--stdio'],
        env: {
          WEATHER_PROVIDER: userValue('weather_provider'),
          DATA_DIR: userValue('data_dir'),
          OTEL_SDK_DISABLED: 'true',
        },
      },
    },
    tools,
    // The prompts (plan_trip, review_tasks, explain_task) are the server's, listed at run time.
    prompts_generated: true,
    user_config: {
      weather_provider: {
        type: 'string',
        title: 'Weather provider',
        description:
          'offline: the built-in dataset of large cities, no network. open-meteo: live forecasts for any ' +
          'place from Open-Meteo (open-meteo.com, no key needed). Any other value stops the server at start.',
        default: 'offline',
        required: false,
      },
      // Required and without a default: Claude Desktop expands no ${HOME} inside a default
      // (modelcontextprotocol/mcpb#251), and leaves an unset optional value as the literal
      // "${user_config.data_dir}" (#250). Required, it starts nothing until a folder is picked.
      data_dir: {
        type: 'directory',
        title: 'Data folder',
        description:
          'The folder where the task list is kept (tasks.db). Pick an empty folder of your own, e.g. ' +
          'one named mcp-workshop in Documents; it stays when the extension is removed.',
        required: true,
      },
    },
    compatibility: {
      platforms: ['darwin', 'win32', 'linux'],
      runtimes: { node: readJson(path.join(SERVER, 'package.json')).engines.node },
    },
    privacy_policies: ['https://open-meteo.com/en/terms'],
  };
}

/**
 * The command the manifest's `mcp_config` resolves to, the way Claude Desktop resolves it (the
 * package's `getMcpConfigForManifest`): `${__dirname}` is `bundleDir`, `userConfig` the user's values
 * over the defaults, `home` the user's home. Undefined while a required value is missing.
 */
export async function launchConfig(manifest, { bundleDir, userConfig, home }) {
  return getMcpConfigForManifest({
    manifest,
    extensionPath: bundleDir,
    systemDirs: {
      HOME: home,
      DESKTOP: path.join(home, 'Desktop'),
      DOCUMENTS: path.join(home, 'Documents'),
      DOWNLOADS: path.join(home, 'Downloads'),
    },
    userConfig,
    pathSeparator: path.sep,
  });
}

/**
 * Copies what the server reads at run time into `stageDir` (empty or missing), as the header lists
 * it. Throws, naming the file, when the server is not built.
 */
export function stageServer(stageDir) {
  const entry = path.join(SERVER_DIST, 'index.js');
  const views = path.join(SERVER_DIST, 'views');
  for (const needed of [entry, path.join(SERVER_DIST, 'index.main.cjs'), views]) {
    if (!fs.existsSync(needed)) {
      throw new Error(`${path.relative(ROOT, needed)} is missing: run \`pnpm build\` first`);
    }
  }
  const serverOut = path.join(stageDir, SERVER_IN_BUNDLE);
  const distOut = path.join(serverOut, 'dist');
  fs.mkdirSync(distOut, { recursive: true });
  for (const file of fs.readdirSync(SERVER_DIST)) {
    if (file === 'index.js' || CHUNK.test(file))
      fs.copyFileSync(path.join(SERVER_DIST, file), path.join(distOut, file));
  }
  fs.cpSync(views, path.join(distOut, 'views'), { recursive: true });
  fs.cpSync(path.join(SERVER, 'skills'), path.join(serverOut, 'skills'), { recursive: true });

  // dist/index.js is an ES module: it needs the package's "type".
  const pkg = readJson(path.join(SERVER, 'package.json'));
  writeJson(path.join(serverOut, 'package.json'), {
    name: pkg.name,
    version: pkg.version,
    private: true,
    description: pkg.description,
    type: pkg.type,
    engines: pkg.engines,
  });

  fs.mkdirSync(path.join(stageDir, 'adr'));
  for (const file of fs.readdirSync(path.join(ROOT, 'adr'))) {
    if (file.endsWith('.md')) fs.copyFileSync(path.join(ROOT, 'adr', file), path.join(stageDir, 'adr', file));
  }

  // Resolved as the bundle resolves it at run time: the task store's package.json from the server,
  // node-sqlite3-wasm from there (the patched copy in pnpm's store).
  const storeJson = fs.realpathSync(
    createRequire(path.join(SERVER, 'package.json')).resolve('@mcp-workshop/task-store/package.json'),
  );
  const sqliteDir = path.dirname(
    fs.realpathSync(createRequire(storeJson).resolve('node-sqlite3-wasm/package.json')),
  );
  const modules = path.join(serverOut, 'node_modules');
  const store = readJson(storeJson);
  writeJson(path.join(modules, '@mcp-workshop/task-store/package.json'), {
    name: store.name,
    version: store.version,
    private: true,
    description:
      'Only its package.json: the server (bundled) resolves node-sqlite3-wasm from here, as in the repository.',
    type: store.type,
    exports: { './package.json': './package.json' },
  });
  fs.cpSync(sqliteDir, path.join(modules, 'node-sqlite3-wasm'), { recursive: true, dereference: true });
}

/**
 * A JSON-RPC session with an MCP server over stdio: `request` (bounded by `timeoutMs`), `notify`,
 * and `close`, which ends stdin and then stops the process. Requests the server sends are refused
 * (this client declares no capabilities); a line on stdout that is not JSON fails every pending
 * request, since stdout carries the protocol only.
 */
export function stdioSession({ command, args = [], env, cwd }, { timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
  const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  const pending = new Map();
  let nextId = 1;
  let stderr = '';
  let buffer = '';
  let ended;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (err) => resolve({ error: err }));
  });
  const failAll = (message) => {
    ended ??= message;
    for (const { reject } of pending.values()) reject(new Error(message));
    pending.clear();
  };
  exited.then(({ code, signal, error }) => {
    const how = error ? `could not start (${error.message})` : `exited (code ${code}, signal ${signal})`;
    failAll(`${command} ${args.join(' ')}: ${how}; stderr: ${stderr.slice(-2000) || '(empty)'}`);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.on('error', () => {}); // EPIPE once the process is gone: reported by `exited`.
  const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (line) receive(line);
    }
  });

  function receive(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      failAll(`stdout carried a line that is not JSON-RPC: ${line.slice(0, 200)}`);
      return;
    }
    if (message.method !== undefined && message.id !== undefined) {
      send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      return;
    }
    const waiter = pending.get(message.id);
    if (!waiter) return; // a notification (logging, list_changed)
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`${waiter.method}: ${JSON.stringify(message.error)}`));
    else waiter.resolve(message.result);
  }

  return {
    stderr: () => stderr,
    request(method, params) {
      if (ended) return Promise.reject(new Error(ended));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method}: no answer within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`));
        }, timeoutMs);
        const settle = (fn) => (value) => {
          clearTimeout(timer);
          fn(value);
        };
        pending.set(id, { method, resolve: settle(resolve), reject: settle(reject) });
        send({ jsonrpc: '2.0', id, method, ...(params && { params }) });
      });
    },
    notify(method, params) {
      send({ jsonrpc: '2.0', method, ...(params && { params }) });
    },
    async close() {
      child.stdin.end();
      await stopChild({ child, exited }, 3_000);
    },
  };
}

/** initialize, then notifications/initialized: the session is ready for requests. */
export async function initializeSession(session) {
  const result = await session.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'pack-mcpb', version: '1.0.0' },
  });
  session.notify('notifications/initialized');
  return result;
}

/** Every tool tools/list returns, page after page. */
export async function listTools(session) {
  const tools = [];
  let cursor;
  do {
    const page = await session.request('tools/list', cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/**
 * The manifest's `tools`: those the model sees (not the views' own, `_meta.ui.visibility: ["app"]`),
 * each with the first sentence of its description, which is what an install dialog has room for.
 */
export function manifestTools(tools) {
  return tools
    .filter((tool) => tool._meta?.ui?.visibility?.includes('model') ?? true)
    .map((tool) => ({ name: tool.name, description: firstSentence(tool.description ?? '') }));
}

function firstSentence(text) {
  const match = /^.*?[.!?](?=\s|$)/s.exec(text.trim());
  return (match ? match[0] : text).replace(/\s+/g, ' ').trim();
}

/** Starts the staged server as `manifest` says (a fresh data folder, the default weather) and lists its tools. */
async function toolsOfStagedServer(manifest, stageDir) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpb-tools-'));
  try {
    const config = await launchConfig(manifest, {
      bundleDir: stageDir,
      userConfig: { data_dir: scratch },
      home: scratch,
    });
    const session = stdioSession({
      command: config.command,
      args: config.args,
      env: { ...minimalEnv(scratch), ...config.env },
      cwd: scratch,
    });
    try {
      await initializeSession(session);
      return await listTools(session);
    } finally {
      await session.close();
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The environment a desktop app gives a server it starts: a PATH with node on it, a home, nothing else. */
export function minimalEnv(home) {
  const env = { PATH: path.dirname(process.execPath), HOME: home };
  if (process.platform === 'win32') {
    env.USERPROFILE = home;
    env.SystemRoot = process.env.SystemRoot;
  }
  return env;
}

/** Stages, lists the tools, writes the manifest and packs. Returns the bundle's absolute path. */
export async function packBundle({ outDir = DEFAULT_OUT_DIR, log = console.error } = {}) {
  const { version } = readJson(path.join(SERVER, 'package.json'));
  const stageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpb-stage-'));
  try {
    stageServer(stageDir);
    const tools = await toolsOfStagedServer(manifestFor({ version }), stageDir);
    const manifest = manifestFor({ version, tools: manifestTools(tools) });
    writeJson(path.join(stageDir, 'manifest.json'), manifest);
    log(
      `pack:mcpb: the staged server started and listed ${tools.length} tools; ` +
        `${manifest.tools.length} go in the manifest: ${manifest.tools.map((tool) => tool.name).join(', ')}`,
    );
    const bundle = path.resolve(outDir, `${BUNDLE_NAME}-${version}.mcpb`);
    fs.mkdirSync(path.dirname(bundle), { recursive: true });
    fs.rmSync(bundle, { force: true });
    // From the staged folder: mcpb lists the archive's files relative to the working directory.
    const pack = spawnSync(process.execPath, [MCPB_CLI, 'pack', '.', bundle], {
      cwd: stageDir,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 120_000,
    });
    if (pack.status !== 0 || !fs.existsSync(bundle)) {
      throw new Error(
        `mcpb pack failed (${pack.error?.message ?? `exit code ${pack.status}`}); its messages are above`,
      );
    }
    return bundle;
  } finally {
    fs.rmSync(stageDir, { recursive: true, force: true });
  }
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function main() {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const bundle = await packBundle({ outDir: values.out ? path.resolve(values.out) : DEFAULT_OUT_DIR });
  console.log(bundle);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`pack:mcpb: ${err.message}`);
    process.exit(1);
  });
}
