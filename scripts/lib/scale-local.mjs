// @ts-check
/**
 * The pure half of `pnpm scale:local` (scripts/scale-local.mjs): its command line, and HAProxy's
 * loopback configuration. The configuration is deploy/haproxy/haproxy.cfg, the file the compose
 * `scale` profile mounts, with only its `bind` and `server` lines changed by test-infra's
 * `loopbackConfig` (the same rewrite the scale-out tests use), so all three run one set of settings.
 * Tested by scale-local.test.mjs; the real run is services/scale-e2e/src/scale-local.e2e.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopbackConfig } from '../../dev/test-infra/dist/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHIPPED_CONFIG = path.join(ROOT, 'deploy/haproxy/haproxy.cfg');
/** The loopback copy for the default ports, for `haproxy -f` by hand (module 12 of doc/WORKSHOP.md). */
export const LOCAL_CONFIG = path.join(ROOT, 'deploy/haproxy/haproxy.local.cfg');
export const SERVER_ENTRY = path.join(ROOT, 'services/mcp-server/dist/index.js');

/** The port compose publishes HAProxy on, so the agent's and the docs' URLs are the same either way. */
export const DEFAULT_LB_PORT = 3020;
/** Three replicas, as the compose profile runs; 3100+ stays clear of the workshop's own 3000–3010. */
export const DEFAULT_REPLICA_PORTS = [3100, 3101, 3102];
/** "More than one server", and few enough for a laptop: each replica is a Node process with a pool. */
const MIN_REPLICAS = 2;
const MAX_REPLICAS = 8;

export const USAGE = `usage: node scripts/scale-local.mjs [--port ${DEFAULT_LB_PORT}] [--replica-ports ${DEFAULT_REPLICA_PORTS.join(',')}]
       node scripts/scale-local.mjs --write-config
Starts ${MIN_REPLICAS}–${MAX_REPLICAS} mcp-server replicas on 127.0.0.1 sharing DATABASE_URL, and HAProxy in front of
them on 127.0.0.1:--port; Ctrl-C stops them all. --write-config regenerates deploy/haproxy/haproxy.local.cfg.`;

/** A mistake on the command line or in the environment that the user fixes: printed, exit 2. */
export class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

function parsePort(text, what) {
  const port = Number(text);
  if (!/^\d+$/.test(text ?? '') || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new UsageError(`${what} needs a port from 1 to 65535, not ${text}`);
  }
  return port;
}

/**
 * argv → { writeConfig } or { lbPort, replicaPorts }; throws UsageError.
 * @param {string[]} argv
 * @returns {{ writeConfig: true } | { writeConfig: false, lbPort: number, replicaPorts: number[] }}
 */
export function parseScaleArgs(argv) {
  let lbPort = DEFAULT_LB_PORT;
  let replicaPorts = DEFAULT_REPLICA_PORTS;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--write-config' && argv.length === 1) return { writeConfig: true };
    if (arg === '--port') lbPort = parsePort(argv[++i], '--port');
    else if (arg === '--replica-ports') {
      const list = argv[++i];
      if (list === undefined) throw new UsageError('--replica-ports needs a list such as 3100,3101');
      replicaPorts = list.split(',').map((part) => parsePort(part, '--replica-ports'));
    } else throw new UsageError(`unknown argument ${arg}`);
  }
  if (replicaPorts.length < MIN_REPLICAS || replicaPorts.length > MAX_REPLICAS) {
    throw new UsageError(
      `--replica-ports names ${MIN_REPLICAS} to ${MAX_REPLICAS} ports, not ${replicaPorts.length}`,
    );
  }
  const all = [lbPort, ...replicaPorts];
  const repeated = all.find((port, index) => all.indexOf(port) !== index);
  if (repeated !== undefined) throw new UsageError(`port ${repeated} is named twice`);
  return { writeConfig: false, lbPort, replicaPorts };
}

/** The database URL for printing: a password never reaches the terminal or a CI log. */
export function redactUrl(text) {
  try {
    const url = new URL(text);
    if (url.password) url.password = '***';
    return url.href;
  } catch {
    return '(not a URL)';
  }
}

/** Refuses a missing or non-Postgres DATABASE_URL before anything starts. */
export function requireDatabaseUrl(value) {
  if (!value) {
    throw new UsageError(
      'DATABASE_URL is not set: the replicas must share one Postgres database, e.g.\n' +
        '  DATABASE_URL=postgres://workshop@127.0.0.1:5433/tasks pnpm scale:local\n' +
        '(doc/WORKSHOP.md module 12, step 3, starts one without sudo)',
    );
  }
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new UsageError(`DATABASE_URL must be a postgres:// URL, not ${redactUrl(value)}`);
  }
  return value;
}

const GENERATED_HEADER = (
  lbPort,
  replicaPorts,
) => `# GENERATED from haproxy.cfg by \`node scripts/scale-local.mjs --write-config\`: edit haproxy.cfg, then
# run that again (scripts/lib/scale-local.test.mjs fails while the two disagree). The settings are
# haproxy.cfg's; only \`bind\` (127.0.0.1:${lbPort}) and the \`server\` lines (127.0.0.1:${replicaPorts.join(', ')}, no Docker
# resolver) differ. Without Docker, in front of replicas you started yourself:
#   haproxy -f deploy/haproxy/haproxy.local.cfg
# or let \`pnpm scale:local\` start the replicas and HAProxy together. From here on, haproxy.cfg's text
# (its first comment speaks of that file).

`;

/** haproxy.cfg rewritten for loopback: HAProxy on 127.0.0.1:lbPort, one server per replica port. */
export function localHaproxyConfig(template, lbPort, replicaPorts) {
  const backends = replicaPorts.map((port) => ({ host: '127.0.0.1', port }));
  return GENERATED_HEADER(lbPort, replicaPorts) + loopbackConfig(template, lbPort, backends);
}

/** What deploy/haproxy/haproxy.local.cfg must contain: the default ports' rewrite of haproxy.cfg. */
export function expectedLocalConfig() {
  return localHaproxyConfig(fs.readFileSync(SHIPPED_CONFIG, 'utf8'), DEFAULT_LB_PORT, DEFAULT_REPLICA_PORTS);
}
