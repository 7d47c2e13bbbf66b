#!/usr/bin/env node
/**
 * `pnpm inspector [args]`: runs MCP Inspector, the pinned version from scripts/lib/inspector-node.mjs,
 * through `npx -y` (the first run downloads it into npm's cache), with the same arguments on Node 20,
 * 22 and 24. The Inspector 2.x needs Node 22.19 or newer; on an older Node on Linux x64 this script
 * lends it the Node 22 that `pnpm install` put in dev/node22, and says so on stderr.
 *
 *   pnpm inspector --cli http://127.0.0.1:3000/mcp --method tools/list
 *   pnpm inspector --cli node services/mcp-server/dist/index.js --stdio --method tools/list
 *   pnpm inspector --config examples/clients/inspector-config.json      (the web UI)
 *
 * The borrowed Node goes first on PATH, so npx, the Inspector and any `node` the Inspector starts
 * (a stdio server's command) all run on it. Exits with the Inspector's exit code.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BUNDLED_NODE_DIR,
  BUNDLED_NODE_PACKAGE,
  bundledNodeNotice,
  chooseNode,
  INSPECTOR_PACKAGE,
} from './lib/inspector-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function main() {
  const choice = chooseNode(process.version, process.platform, process.arch);
  const env = npmEnvironment(process.env);
  if (choice.kind === 'unsupported') {
    console.error(`inspector: ${choice.message}`);
    process.exit(1);
  }
  if (choice.kind === 'bundled') {
    const bundled = bundledNode();
    console.error(bundledNodeNotice(process.version, bundled.version));
    const pathKey = Object.keys(env).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH';
    env[pathKey] = [bundled.binDir, env[pathKey]].filter(Boolean).join(path.delimiter);
  }

  // -y: without it npx stops at "Ok to proceed?" before the first download (and a `yes=false`
  // in ~/.npmrc makes it ask every time).
  const args = ['-y', INSPECTOR_PACKAGE, ...process.argv.slice(2)];
  const windows = process.platform === 'win32';
  // npx is a .cmd file on Windows, which Node only starts through a shell; quote for cmd.exe.
  const child = windows
    ? spawn('npx.cmd', args.map(quoteForCmd), { env, stdio: 'inherit', shell: true })
    : spawn('npx', args, { env, stdio: 'inherit' });

  // Ctrl-C reaches the Inspector too (same process group); wait for it to finish rather than die first.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (err) => {
    console.error(`inspector: could not start npx (${err.message}). It comes with Node; is it on PATH?`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 128 + (signalNumber(signal) ?? 1) : 1));
  });
}

/**
 * The environment for npx. Under `pnpm inspector`, pnpm exports its whole configuration as
 * npm_config_* variables: npm warns about the pnpm-only ones (catalog, overrides, …) and would read
 * pnpm's rc file as its own globalconfig. npm reads the same .npmrc files itself, so drop them.
 */
function npmEnvironment(source) {
  const env = { ...source };
  if (!String(env.npm_config_user_agent).startsWith('pnpm/')) return env;
  for (const key of Object.keys(env)) {
    if (
      /^npm_(config|package|lifecycle)_/i.test(key) ||
      /^npm_(command|execpath|node_execpath)$/i.test(key)
    ) {
      delete env[key];
    }
  }
  return env;
}

/** The Node 22 binary of dev/node22, or exit with what to do when `pnpm install` did not fetch it. */
function bundledNode() {
  try {
    const require = createRequire(path.join(ROOT, BUNDLED_NODE_DIR, 'package.json'));
    const manifest = require.resolve(`${BUNDLED_NODE_PACKAGE}/package.json`);
    const binDir = path.join(path.dirname(manifest), 'bin');
    if (fs.existsSync(path.join(binDir, 'node'))) {
      return { binDir, version: JSON.parse(fs.readFileSync(manifest, 'utf8')).version };
    }
  } catch {
    // Not installed: handled below.
  }
  console.error(
    `inspector: MCP Inspector needs Node 22.19 or newer, this is Node ${process.version}, and ` +
      `${BUNDLED_NODE_DIR} has no Node 22 binary. Run \`pnpm install\` (it fetches one on Linux x64), ` +
      'or install Node 22 or 24 and run `pnpm inspector` with it.',
  );
  process.exit(1);
}

function quoteForCmd(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `"${arg.replaceAll('"', '""')}"`;
}

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal];
}

main();
