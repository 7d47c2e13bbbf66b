#!/usr/bin/env node
// @ts-check
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
 *                                                     host and store (packages/mcp-host/src/run/bundle.ts); no source maps
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
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getMcpConfigForManifest } from '@anthropic-ai/mcpb';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

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
/** The chunks rolldown writes beside the entry (packages/mcp-host/src/run/bundle.ts: `index.<name>.cjs`). */
const CHUNK = /^index\.[\w.-]+\.cjs$/;
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
 * The SDK's `Client`, connected over stdio (its `StdioClientTransport`) to the server `command`
 * starts; the client's `initialize` is done. `stderr()` is what the server wrote there so far, which
 * a failed start is reported with. `client.close()` ends stdin, then stops the process (SIGTERM, then
 * SIGKILL). The transport adds its default inherited variables (HOME, LOGNAME, PATH, SHELL, TERM,
 * USER) under `env`, as a desktop host built on the SDK does.
 */
/**
 * @param {{ command: string, args?: string[], env?: Record<string, string>, cwd?: string }} server
 */
export async function connectStdio({ command, args = [], env, cwd }) {
  const transport = new StdioClientTransport({ command, args, env, cwd, stderr: 'pipe' });
  let stderr = '';
  // A PassThrough (a Readable), though the transport types it as a Stream.
  const serverStderr = /** @type {import('node:stream').Readable | null} */ (transport.stderr);
  serverStderr?.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'pack-mcpb', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
  } catch (error) {
    await client.close();
    throw new Error(
      `${command} ${args.join(' ')} did not start as an MCP server (${error instanceof Error ? error.message : error}); ` +
        `stderr: ${stderr.slice(-2000) || '(empty)'}`,
    );
  }
  return { client, stderr: () => stderr };
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
    if (!config) throw new Error("the manifest's mcp_config did not resolve with a data folder given");
    const { client } = await connectStdio({
      command: config.command,
      args: config.args,
      env: { ...minimalEnv(scratch), ...config.env },
      cwd: scratch,
    });
    try {
      // Every page: the client walks tools/list's cursors itself.
      return (await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS })).tools;
    } finally {
      await client.close();
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The environment a desktop app gives a server it starts: a PATH with node on it and a home (the
 * stdio transport adds its few inherited variables, without replacing these).
 */
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
