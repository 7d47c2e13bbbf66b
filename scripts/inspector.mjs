#!/usr/bin/env node
// @ts-check
/**
 * `pnpm inspector [args]`: runs MCP Inspector, the version `pnpm install` put in node_modules (pinned in
 * pnpm-workspace.yaml's catalog), with the same arguments on Node 20, 22 and 24, and without the
 * network. The Inspector 2.x needs Node 22.19 or newer; on an older Node on Linux x64 this script runs
 * it on the Node 22 that `pnpm install` put in dev/node22, and says so on stderr.
 *
 *   pnpm inspector --cli http://127.0.0.1:3000/mcp --method tools/list
 *   pnpm inspector --cli node services/mcp-server/dist/index.js --stdio --method tools/list
 *   pnpm inspector --config examples/clients/inspector-config.json      (the web UI)
 *
 * The borrowed Node also goes first on PATH, so any `node` the Inspector starts (a stdio server's
 * command) runs on it too. Exits with the Inspector's exit code. inspector.process.test.mjs runs it
 * as a process, offline.
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
  INSPECTOR_ENTRY,
  INSPECTOR_PACKAGE,
} from './lib/inspector-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function main() {
  const choice = chooseNode(process.version, process.platform, process.arch);
  if (choice.kind === 'unsupported') {
    console.error(`inspector: ${choice.message}`);
    process.exit(1);
  }
  const entry = inspectorEntry();
  const env = { ...process.env };
  let node = process.execPath;
  if (choice.kind === 'bundled') {
    const bundled = bundledNode();
    console.error(bundledNodeNotice(process.version, bundled.version));
    const pathKey = Object.keys(env).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH';
    env[pathKey] = [bundled.binDir, env[pathKey]].filter(Boolean).join(path.delimiter);
    node = path.join(bundled.binDir, 'node');
  }

  const child = spawn(node, [entry, ...process.argv.slice(2)], { env, stdio: 'inherit' });
  // Ctrl-C reaches the Inspector too (same process group); wait for it to finish rather than die first.
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']))
    process.on(signal, () => child.kill(signal));
  child.on('error', (err) => {
    console.error(`inspector: could not start ${node} (${err.message}).`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 128 + (signalNumber(signal) ?? 1) : 1));
  });
}

/** The Inspector's launcher in node_modules, or exit with what to do when `pnpm install` has not run. */
function inspectorEntry() {
  try {
    const require = createRequire(path.join(ROOT, 'package.json'));
    const manifest = require.resolve(`${INSPECTOR_PACKAGE}/package.json`);
    const entry = path.join(path.dirname(manifest), INSPECTOR_ENTRY);
    if (fs.existsSync(entry)) return entry;
  } catch {
    // Not installed: handled below.
  }
  console.error(
    `inspector: ${INSPECTOR_PACKAGE} is not in node_modules. Run \`pnpm install\` ` +
      '(the one step that needs the network), then `pnpm inspector` again.',
  );
  process.exit(1);
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

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal];
}

main();
