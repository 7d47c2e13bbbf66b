#!/usr/bin/env node
// @ts-check
/**
 * Checks docker-compose.yml and the Dockerfile against the services, without a Docker engine
 * (`pnpm check:compose`; `pnpm lint:compose` runs dclint on the compose file itself).
 *
 *   node scripts/check-compose.mjs               every check, including the build replay (about 2 min)
 *   node scripts/check-compose.mjs --skip-build  only the static checks and the services from dist/
 *   node scripts/check-compose.mjs --keep        keep the replay's temporary folders, and say where
 *
 * 1. Static: every built service is one of SERVICES: a package under its own name, which starts
 *    without a profile, or a copy of it behind a profile (`mcp-server-secure`, the replicas
 *    `mcp-server-1..3`, `mcp-server-traced`, `agent-secure`, `agent-scaled`, `agent-traced`; the
 *    `auth-server` package runs only under one); a service from an image sits behind a profile and names a version tag. Every variable
 *    compose or an image sets is one the service reads (its env schema's keys, `runEnvKeys(catalogue.env)` /
 *    `AGENT_ENV_KEYS` / `DEMO_MODEL_ENV_KEYS` / `AUTH_SERVER_ENV_KEYS`), and the values parse, with
 *    .env empty and with .env.example's values; a secret .env must set (the authorization server's,
 *    `AUTH_SERVER_SECRET_KEYS`) makes its service refuse to start while empty, and a secret .env may
 *    leave empty (the agent's AGENT_API_TOKEN, `AGENT_GENERATED_SECRET_KEYS`) is one the service
 *    makes at start when its host is not loopback (`generatesApiToken`), passed from .env so one set
 *    there wins, and left empty in .env.example; every `${VAR}` compose reads is documented in
 *    .env.example and the other way round; every port (ports, expose, EXPOSE, healthchecks, URLs
 *    between services, also in comma lists) matches the port the service listens on, and the local
 *    default where there is one (a profiled copy may publish another host port; no two services
 *    publish the same one; a second port, the agent's sandbox for MCP Apps views, is published
 *    beside the first, with its origin set where the host port differs); a URL that calls a
 *    service has a depends_on that waits for its healthcheck, and the Host it dials is allowed by
 *    the service, or, for a proxy from an image (HAProxy), by every service the proxy depends on; a
 *    URL that only names a service (an issuer, a resource) needs no depends_on; a service under a
 *    profile is depended on with `required: false` from services outside that profile; DATA_DIR is on a named volume unless
 *    DATABASE_URL keeps the tasks elsewhere; every built service is a target of the one Dockerfile,
 *    named after its package (`target: agent`), so they share its one `build` stage, which runs
 *    `pnpm deploy`; each target starts from a fresh Node 22 or 24 slim base, with a non-root USER
 *    and a HEALTHCHECK.
 * 2. From dist/: starts each built service as compose would (the image's ENV plus compose's
 *    environment; 0.0.0.0 becomes 127.0.0.1, every port a free one, service names local URLs, paths
 *    a temporary folder per service) in depends_on order, every profile at once (so `auth`: the
 *    authorization server, the secured server, the agent signed in), and GETs each healthcheck URL:
 *    200 or it fails; an agent must have found the demo model and the MCP server's tools, and its
 *    sandbox must answer on its own (free) port. A service that depends on a service from an image
 *    (Postgres, HAProxy, Jaeger), or on one skipped for that, is skipped here and in 3, with one
 *    line saying why.
 * 3. Build replay: runs the Dockerfile's `build` stage once (its COPY lines, honouring .dockerignore,
 *    and its RUN lines, verbatim) in a temporary folder, assembles each target from its COPY lines,
 *    starts its CMD from its WORKDIR, and checks health again; for the server also
 *    that the ADRs sit where dist/resources/adr.js looks for them and the built MCP Apps views where
 *    dist/resources/views.js does, for the agent that the chat page and its lazy app-view chunk are in.
 * What needs an engine stays unchecked: the base images and the images compose pulls (Postgres,
 * HAProxy, Ollama, Jaeger) with their healthchecks, the runtime stage's RUN lines (mkdir and chown
 * of /data), running as USER node, Docker networking and the named volumes.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, stopChild } from '@mcp-workshop/shared/processes';
import { parse as parseYaml } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');
const ENV_EXAMPLE = path.join(ROOT, '.env.example');
const DOCKERIGNORE = path.join(ROOT, '.dockerignore');

const STARTUP_TIMEOUT_MS = 30_000;
/**
 * One RUN line of the replay. The build stage builds the four services in one line: 69 s on a
 * 2-core machine, 11 min on the same machine shared with other builds and test runs.
 */
const STEP_TIMEOUT_MS = 20 * 60_000;
const SHUTDOWN_TIMEOUT_MS = 5_000;
const NODE_MAJORS = ['22', '24'];
/** Read by Node or express rather than by an env schema; an image may set them. */
const RUNTIME_VARS = new Set(['NODE_ENV', 'NODE_OPTIONS']);
/** What .dockerignore must keep out of every image. */
const MUST_IGNORE = [
  'node_modules',
  'services/agent/node_modules',
  'services/mcp-server/dist',
  'services/auth-server/dist',
  '.env',
  '.git',
];

/**
 * The packages this repository builds, by compose service name: the package, its env module, the
 * variables it binds to, its Host allow-list (none: it accepts any Host), the variables whose URLs
 * only name a service (an issuer, a resource: no call, so no depends_on), its default port when
 * started locally (none: a free port), and the profiled compose services that run copies of it.
 * `profileOnly`: the package runs under a profile only, under its own name too. `extraPorts`: more
 * ports it listens on, each with its variable, its local default, the variable that names the
 * origin a browser reaches it at (when the published port is another), and a path that answers 200.
 */
const SERVICES = {
  'mcp-server': {
    dir: 'services/mcp-server',
    // The host reads the catalogue's settings with its own: loadRunEnv(catalogue.env), runEnvKeys(catalogue.env).
    envModule: 'packages/mcp-host/dist/run/env.js',
    catalogue: 'services/mcp-server/dist/catalogue.js',
    load: 'loadRunEnv',
    keys: 'runEnvKeys',
    hostVar: 'HOST',
    portVar: 'PORT',
    hostsVar: 'MCP_ALLOWED_HOSTS',
    identifierVars: ['MCP_RESOURCE_URL'],
    localPort: 3000,
    copies: ['mcp-server-secure', 'mcp-server-1', 'mcp-server-2', 'mcp-server-3', 'mcp-server-traced'],
  },
  agent: {
    dir: 'services/agent',
    envModule: 'services/agent/dist/env.js',
    load: 'loadAgentEnv',
    keys: 'AGENT_ENV_KEYS',
    hostVar: 'AGENT_HOST',
    portVar: 'AGENT_PORT',
    hostsVar: 'AGENT_ALLOWED_HOSTS',
    identifierVars: [],
    localPort: 3001,
    copies: ['agent-secure', 'agent-scaled', 'agent-traced'],
    // On 0.0.0.0 without AGENT_API_TOKEN it makes a secret of its own at start and prints the
    // one-time link to the chat page, as Jupyter does; one set in .env wins. So .env may leave it
    // empty, and compose must pass it from .env. `generates` is the env module's rule.
    generatedSecrets: { keys: 'AGENT_GENERATED_SECRET_KEYS', generates: 'generatesApiToken' },
    // The sandbox proxy for MCP Apps views listens on a second port (a second origin, ADR 017). The
    // browser frames it, so it is published beside the API; where the host port differs, the page
    // must be told the origin it reaches it at.
    extraPorts: [
      {
        portVar: 'AGENT_VIEW_SANDBOX_PORT',
        originVar: 'AGENT_VIEW_SANDBOX_ORIGIN',
        localPort: 3004,
        healthPath: '/health',
      },
    ],
  },
  'demo-model': {
    dir: 'services/demo-model',
    envModule: 'services/demo-model/dist/env.js',
    load: 'loadDemoModelEnv',
    keys: 'DEMO_MODEL_ENV_KEYS',
    hostVar: 'DEMO_MODEL_HOST',
    portVar: 'DEMO_MODEL_PORT',
    identifierVars: [],
    localPort: 3002,
    copies: [],
  },
  'auth-server': {
    dir: 'services/auth-server',
    envModule: 'services/auth-server/dist/env.js',
    load: 'loadAuthServerEnv',
    keys: 'AUTH_SERVER_ENV_KEYS',
    hostVar: 'AUTH_HOST',
    portVar: 'AUTH_PORT',
    identifierVars: ['AUTH_ISSUER', 'MCP_RESOURCE_URL'],
    localPort: 3003,
    copies: [],
    profileOnly: true,
    // On 0.0.0.0 it refuses its published development secrets, so .env must set these.
    secretKeys: 'AUTH_SERVER_SECRET_KEYS',
  },
};
/**
 * A package's entry in SERVICES, with its name and what the static check reads from its env module.
 * @typedef {object} ServiceSpec
 * @property {string} name the package's own compose service
 * @property {string} dir
 * @property {string} envModule
 * @property {string} [catalogue] a catalogue module (its default export's `env`), served by the host: `envModule`'s `load` and `keys` take that shape first
 * @property {string} load
 * @property {string} keys
 * @property {string} hostVar
 * @property {string} portVar
 * @property {string} [hostsVar]
 * @property {string[]} identifierVars
 * @property {number} localPort
 * @property {string[]} copies
 * @property {boolean} [profileOnly]
 * @property {string} [secretKeys]
 * @property {{ keys: string, generates: string }} [generatedSecrets]
 * @property {Array<{ portVar: string, originVar: string, localPort: number, healthPath: string }>} [extraPorts]
 * @property {Set<string>} schemaKeys from the env module, before any check reads it
 * @property {(env: Record<string, string | undefined>) => Record<string, any>} loadEnv
 * @property {string[]} [generatedKeys]
 * @property {(env: Record<string, any>) => boolean} [generates]
 */
/** @type {Map<string, ServiceSpec>} */
const specs = new Map(
  Object.entries(SERVICES).map(([name, spec]) => [
    name,
    /** @type {ServiceSpec} */ (Object.assign(spec, { name })),
  ]),
);
/**
 * The package a compose service runs: its own name, or one of the copies a package lists.
 * @param {string} name
 */
const specFor = (name) => specs.get(name) ?? [...specs.values()].find((spec) => spec.copies.includes(name));
/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

const { values: args } = parseArgs({
  options: {
    'skip-build': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
  strict: true,
});

const problems = [];
const fail = (message) => problems.push(message);
const log = (message) => console.error(message);
const rel = (file) => path.relative(ROOT, file) || '.';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const started = Date.now();
const elapsed = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------------------------------------
// Parsing: .env files, compose interpolation, Dockerfiles, .dockerignore

/** `VAR=value` lines; `# comments` and blank lines skipped. */
function parseDotEnv(text) {
  const vars = new Map();
  for (const line of text.split('\n')) {
    const [, key, value] = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line) ?? [];
    if (key && value !== undefined) vars.set(key, value.trim().replace(/^(['"])(.*)\1$/, '$2'));
  }
  return vars;
}

/** The variables a compose value interpolates, and its value under `vars` (`${A}`, `${A:-x}`, `${A-x}`, `$A`, `$$`). */
function interpolate(value, vars) {
  const used = [];
  const result = String(value).replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, name, colon, op, word, bare) => {
      if (whole === '$$') return '$';
      const key = name ?? bare;
      used.push(key);
      const present = vars.has(key) && (colon ? vars.get(key) !== '' : true);
      if (op === '-') return present ? vars.get(key) : word;
      if (op === '+') return present ? word : '';
      if (op === '?' && !present) fail(`compose: \${${key}} is required (${word})`);
      return vars.get(key) ?? '';
    },
  );
  return { used, result };
}

/** A service's `environment`, as a map, in either of compose's forms. */
function composeEnvironment(service) {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((item) => {
        const [key, ...rest] = String(item).split('=');
        return [key, rest.join('=')];
      }),
    );
  }
  return Object.fromEntries(
    Object.entries(env).map(([key, value]) => [key, value == null ? '' : String(value)]),
  );
}

/** JSON array (exec form) or shell form, as an argv. */
function commandArgv(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed);
  return ['/bin/sh', '-c', trimmed];
}

/**
 * @typedef {{ op: string, args: string, line: number }} Instruction
 * @typedef {{ name: string, from: string, base: Stage | undefined, instructions: Instruction[], line: number }} Stage
 */

/**
 * Stages of a Dockerfile: `{ name, from, instructions: [{ op, args, line }] }`, with ARG defaults applied to FROM.
 * @param {string} file
 * @returns {Stage[]}
 */
function parseDockerfile(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const logical = [];
  let current = '';
  let startLine = 0;
  lines.forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    if (current === '' && /^\s*(#|$)/.test(line)) return;
    if (current !== '' && /^\s*#/.test(line)) return;
    if (current === '') startLine = index + 1;
    if (/\\\s*$/.test(line)) {
      current += `${line.replace(/\\\s*$/, '')} `;
      return;
    }
    logical.push({ text: current + line, line: startLine });
    current = '';
  });
  const globalArgs = new Map();
  /** @type {Stage[]} */
  const stages = [];
  for (const { text, line } of logical) {
    const [, word, args] = /^\s*([A-Za-z]+)\s+([\s\S]*)$/.exec(text) ?? [];
    if (word === undefined || args === undefined) continue;
    const op = word.toUpperCase();
    const rest = args.trim();
    if (op === 'FROM') {
      const [image = '', as, name] = rest.split(/\s+/);
      const resolved = image.replace(
        /\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g,
        (_, key) => globalArgs.get(key) ?? '',
      );
      const base = stages.find((stage) => stage.name === resolved);
      stages.push({
        name: as?.toUpperCase() === 'AS' && name ? name : String(stages.length),
        from: resolved,
        base,
        instructions: [],
        line,
      });
      continue;
    }
    if (stages.length === 0) {
      if (op === 'ARG') {
        const [key, value = ''] = rest.split('=');
        globalArgs.set(key, value);
      }
      continue;
    }
    stages[stages.length - 1]?.instructions.push({ op, args: rest, line });
  }
  return stages;
}

/** Instructions of a stage including those of the stages it is built FROM. */
function stageChain(stage) {
  return stage.base ? [...stageChain(stage.base), ...stage.instructions] : stage.instructions;
}

/** `ENV A=1 B=2` (and the old `ENV A 1`). */
function parseEnvInstruction(args) {
  const out = {};
  if (!args.includes('=')) {
    const [key, ...rest] = args.split(/\s+/);
    out[key] = rest.join(' ');
    return out;
  }
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g)) {
    out[match[1]] = match[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

/**
 * What a runtime stage ends up with: ENV, WORKDIR, CMD, EXPOSE, USER, HEALTHCHECK.
 * @param {Stage} stage
 */
function stageConfig(stage) {
  /**
   * @type {{ env: Record<string, string>, workdir: string, cmd: string[] | undefined, expose: number[],
   *   user: string | undefined, healthcheck: string | undefined }}
   */
  const config = {
    env: {},
    workdir: '/',
    cmd: undefined,
    expose: [],
    user: undefined,
    healthcheck: undefined,
  };
  for (const { op, args } of stageChain(stage)) {
    if (op === 'ENV') Object.assign(config.env, parseEnvInstruction(args));
    if (op === 'WORKDIR') config.workdir = path.posix.resolve(config.workdir, args);
    if (op === 'CMD') config.cmd = commandArgv(args);
    if (op === 'EXPOSE') config.expose.push(...args.split(/\s+/).map((port) => Number(port.split('/')[0])));
    if (op === 'USER') config.user = args;
    if (op === 'HEALTHCHECK') config.healthcheck = args.replace(/^(--\S+\s+)*CMD\s+/, '');
  }
  return config;
}

/** `.dockerignore` as a predicate on context-relative paths (Docker's rules: last match wins, `!` re-includes). */
function dockerignore() {
  const rules = fs
    .readFileSync(DOCKERIGNORE, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negate = line.startsWith('!');
      const pattern = path.posix
        .normalize((negate ? line.slice(1) : line).replace(/^\/+/, ''))
        .replace(/\/+$/, '');
      const source = pattern
        .split('/')
        .map((part) =>
          part === '**'
            ? '(?:.*)'
            : part
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replace(/\*/g, '[^/]*')
                .replace(/\?/g, '[^/]'),
        )
        .join('/')
        .replace(/\(\?:\.\*\)\//g, '(?:.*/)?');
      return { negate, regex: new RegExp(`^${source}(?:/.*)?$`) };
    });
  const hasNegation = rules.some((rule) => rule.negate);
  const ignored = (relPath) => {
    let result = false;
    for (const rule of rules) if (rule.regex.test(relPath)) result = !rule.negate;
    return result;
  };
  return { ignored, hasNegation };
}

// ---------------------------------------------------------------------------------------------
// Processes

/** GET with an explicit Host header (fetch cannot set one), and any other `headers`. */
function get(url, host, headers = {}) {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        headers: { ...headers, ...(host ? { host } : {}) },
        timeout: 2_000,
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode, body }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
  });
}

/** The caller's environment without anything a service or a nested pnpm would read from it. */
function cleanEnv(schemaKeys) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (schemaKeys.has(key) || RUNTIME_VARS.has(key) || /^(npm_|PNPM_|TURBO_|INIT_CWD$)/i.test(key)) continue;
    env[key] = value;
  }
  // `pnpm check:compose` puts the root's node_modules/.bin first; a build must not find tools there.
  env.PATH = (env.PATH ?? '')
    .split(path.delimiter)
    .filter((entry) => !entry.includes(`node_modules${path.sep}.bin`))
    .join(path.delimiter);
  return env;
}

const children = new Set();

function startProcess(label, argv, { cwd, env }) {
  const child = spawn(argv[0] === 'node' ? process.execPath : argv[0], argv.slice(1), {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk) => {
    output = (output + chunk).slice(-8_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const handle = { label, child, exited, output: () => output };
  children.add(handle);
  return handle;
}

function stopProcess(handle) {
  children.delete(handle);
  return stopChild(handle.child, { graceMs: SHUTDOWN_TIMEOUT_MS });
}

async function waitHealthy(handle, url, headers = {}) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (handle.child.exitCode !== null) {
      throw new Error(`${handle.label} exited with code ${handle.child.exitCode}:\n${handle.output()}`);
    }
    try {
      const response = await get(url, undefined, headers);
      if (response.status === 200) return response;
      // A 4xx is an answer, not a slow start: the path or the Host is wrong.
      if (response.status < 500)
        throw new Error(`${handle.label}: ${url} answered ${response.status}, not 200`);
      last = `HTTP ${response.status}`;
    } catch (error) {
      if (/answered \d+, not 200/.test(messageOf(error))) throw error;
      last = messageOf(error);
    }
    await sleep(150);
  }
  throw new Error(
    `${handle.label}: ${url} did not answer 200 within ${STARTUP_TIMEOUT_MS} ms (${last}):\n${handle.output()}`,
  );
}

/** Runs one RUN line the way `/bin/sh -c` would in the image, with a time limit; resolves with its duration. */
function runStep(argv, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const since = Date.now();
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk) => {
      output = (output + chunk).slice(-12_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Date.now() - since);
      else reject(new Error(`exit ${code ?? signal}:\n${output}`));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// 1. Static checks

// merge: compose honours YAML merge keys (`<<: *anchor`), which the file uses for its copies.
const compose = parseYaml(fs.readFileSync(COMPOSE_FILE, 'utf8'), { merge: true });
const exampleVars = parseDotEnv(fs.readFileSync(ENV_EXAMPLE, 'utf8'));
const composeServices = compose.services ?? {};
const envModules = new Map();
for (const spec of specs.values()) {
  const file = path.join(ROOT, spec.envModule);
  if (!fs.existsSync(file)) throw new Error(`${spec.envModule} is missing: run \`pnpm build\` first.`);
  const module = envModules.get(file) ?? (await import(pathToFileURL(file).href));
  envModules.set(file, module);
  if (spec.catalogue) {
    const catalogueFile = path.join(ROOT, spec.catalogue);
    if (!fs.existsSync(catalogueFile))
      throw new Error(`${spec.catalogue} is missing: run \`pnpm build\` first.`);
    const shape = (await import(pathToFileURL(catalogueFile).href)).default?.env ?? {};
    const load = module[spec.load];
    spec.schemaKeys = new Set(module[spec.keys]?.(shape));
    spec.loadEnv =
      typeof load === 'function'
        ? (/** @type {Record<string, string | undefined>} */ env) => load(shape, env)
        : load;
  } else {
    spec.schemaKeys = new Set(module[spec.keys]);
    spec.loadEnv = module[spec.load];
  }
  if (spec.schemaKeys.size === 0 || typeof spec.loadEnv !== 'function') {
    fail(`${spec.envModule} must export ${spec.keys} and ${spec.load}`);
  }
  if (spec.generatedSecrets) {
    const { keys, generates } = spec.generatedSecrets;
    /** @type {string[]} */
    const generatedKeys = module[keys] ?? [];
    spec.generatedKeys = generatedKeys;
    spec.generates = module[generates];
    if (generatedKeys.length === 0 || typeof spec.generates !== 'function')
      fail(`${spec.envModule} must export ${keys} and ${generates}`);
  }
}
const allSchemaKeys = new Set([...specs.values()].flatMap((spec) => [...spec.schemaKeys]));
/**
 * The .env variables a service refuses to start without (`secretKeys`: its published defaults are
 * refused off loopback), with a stand-in each. The checks below use the stand-ins wherever .env
 * would be empty, as a participant's .env fills them in, and check that without them the service
 * does refuse to start.
 */
const standIns = new Map();
for (const spec of specs.values()) {
  if (!spec.secretKeys) continue;
  const keys = envModules.get(path.join(ROOT, spec.envModule))[spec.secretKeys] ?? [];
  if (keys.length === 0) fail(`${spec.envModule} must export ${spec.secretKeys}`);
  // A random tail, as a generated secret has: the agent refuses a short or made-up-looking one.
  for (const key of keys)
    standIns.set(
      key,
      `stand-in-${key.toLowerCase().replaceAll('_', '-')}-${randomBytes(24).toString('hex')}`,
    );
}
/** `vars` with a stand-in for each required secret it leaves empty. */
const withStandIns = (vars) =>
  new Map([...standIns, ...[...vars].filter(([key, value]) => !standIns.has(key) || value !== '')]);

const interpolated = new Set();
const dockerfiles = new Map();
/** Per service: the resolved picture the later phases start from. */
const plans = [];

/** Published host ports, by service, across every profile: two services on one port cannot run together. */
const published = new Map();
/** `[hostIp, published, target]` of a `ports` entry, in either of compose's forms. */
function portMapping(entry) {
  const text =
    typeof entry === 'object' ? `${entry.host_ip ?? ''}:${entry.published}:${entry.target}` : String(entry);
  const parts = (text.split('/')[0] ?? '').split(':');
  return {
    text,
    hostIp: parts.at(-3),
    published: Number(parts.at(-2) ?? parts.at(-1)),
    target: Number(parts.at(-1)),
  };
}
for (const [name, service] of Object.entries(composeServices)) {
  for (const entry of service.ports ?? []) {
    const { published: port } = portMapping(entry);
    if (published.has(port)) fail(`${name}: publishes host port ${port}, as ${published.get(port)} does`);
    else published.set(port, name);
  }
}

for (const [name, service] of Object.entries(composeServices)) {
  const spec = specFor(name);
  if (!service.build) {
    if (!service.image) fail(`${name}: neither build nor image`);
    else if (!service.profiles?.length) fail(`${name}: a service from an image must sit behind a profile`);
    else if (
      !/^[^:@\s]+(:[\w][\w.-]*)(@sha256:[0-9a-f]{64})?$/.test(service.image) ||
      /:latest\b/.test(service.image)
    )
      fail(`${name}: image ${service.image} should name a version tag, not latest`);
    for (const value of Object.values(composeEnvironment(service))) {
      for (const key of interpolate(value, exampleVars).used) interpolated.add(key);
    }
    continue;
  }
  if (!spec) {
    fail(`${name}: built by compose but unknown to scripts/check-compose.mjs (add it to SERVICES)`);
    continue;
  }
  // A package's own service starts by default; its copies, and a profile-only package, need a profile.
  const isCopy = name !== spec.name;
  const profiled = Boolean(service.profiles?.length);
  if (!isCopy && !spec.profileOnly && profiled)
    fail(`${name}: built services start by default, without a profile`);
  if ((isCopy || spec.profileOnly) && !profiled)
    fail(`${name}: ${isCopy ? `a copy of ${spec.name}` : spec.dir} runs only under a profile; add one`);

  const context = path.resolve(ROOT, service.build.context ?? '.');
  if (context !== ROOT) fail(`${name}: build.context must be the repository root (the workspace)`);
  const dockerfile = path.join(context, service.build.dockerfile ?? 'Dockerfile');
  if (!fs.existsSync(dockerfile)) {
    fail(`${name}: ${rel(dockerfile)} does not exist`);
    continue;
  }
  if (!dockerfiles.has(dockerfile)) dockerfiles.set(dockerfile, parseDockerfile(dockerfile));
  const stages = dockerfiles.get(dockerfile);
  const stage = service.build.target ? stages.find((s) => s.name === service.build.target) : stages.at(-1);
  if (!stage) {
    fail(`${name}: ${rel(dockerfile)} has no stage ${service.build.target}`);
    continue;
  }
  const image = stageConfig(stage);
  const where = `${name} (${rel(dockerfile)}, stage ${stage.name})`;
  // One image per package, whichever compose service runs it: the target is the package's name.
  if (service.build.target !== spec.name)
    fail(`${name}: build.target must be ${spec.name}, the target of ${rel(dockerfile)} for ${spec.dir}`);

  // The Dockerfile's shape.
  for (const s of stages) {
    const base = s.base ? s.base.from : s.from;
    const major = /^node:(\d+)[.\w-]*-slim$/.exec(base)?.[1];
    if (!s.base && !NODE_MAJORS.includes(major ?? ''))
      fail(`${rel(dockerfile)}: stage ${s.name} is FROM ${base}, not node:22/24 slim`);
  }
  const build = stages.find((s) => s.name === 'build');
  if (!build) fail(`${rel(dockerfile)}: no stage named build`);
  else if (
    !build.instructions.some((i) => i.op === 'RUN' && /\bpnpm\b.*\bdeploy\b|\bturbo\s+prune\b/.test(i.args))
  ) {
    fail(`${rel(dockerfile)}: the build stage runs neither \`pnpm deploy\` nor \`turbo prune\``);
  }
  if (stage === build || stage.base) fail(`${where}: the runtime stage must start FROM a fresh base image`);
  if (!image.user || /^(root|0)(:|$)/.test(image.user)) fail(`${where}: no non-root USER`);
  if (!image.healthcheck) fail(`${where}: no HEALTHCHECK`);
  if (!image.cmd) fail(`${where}: no CMD`);
  if (image.workdir !== `/app/${spec.dir}`) {
    fail(`${where}: WORKDIR is ${image.workdir}, expected /app/${spec.dir} (the repository's layout)`);
  }
  const pinned = /^pnpm@(\S+)$/.exec(
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).packageManager,
  )?.[1];
  for (const { op, args } of stageChain(build ?? stage)) {
    const version = /npm install -g pnpm@(\S+)/.exec(args)?.[1];
    if (op === 'RUN' && version && version !== pinned)
      fail(`${rel(dockerfile)}: installs pnpm@${version}; package.json pins ${pinned}`);
  }

  // Variables: every key is one the service reads.
  const environment = composeEnvironment(service);
  for (const key of Object.keys(image.env)) {
    if (!spec.schemaKeys.has(key) && !RUNTIME_VARS.has(key))
      fail(`${where}: ENV ${key} is not read by ${spec.dir}`);
  }
  for (const key of Object.keys(environment)) {
    if (!spec.schemaKeys.has(key))
      fail(`${name}: compose sets ${key}, which ${spec.dir} (${spec.keys}) does not read`);
  }
  if (service.env_file) fail(`${name}: env_file would pass every .env variable; list them under environment`);
  const resolve = (vars) =>
    Object.fromEntries(
      Object.entries(environment).map(([key, value]) => {
        const { used, result } = interpolate(value, vars);
        for (const item of used) interpolated.add(item);
        return [key, result];
      }),
    );
  const effective = { ...image.env, ...resolve(withStandIns(new Map())) };
  if (spec.secretKeys) {
    // Without the secrets in .env it must refuse to start, naming each one: compose gives no default.
    const keys = [...standIns.keys()].filter((key) => spec.schemaKeys.has(key));
    try {
      spec.loadEnv({ ...image.env, ...resolve(new Map()) });
      fail(
        `${name}: starts on ${image.env[spec.hostVar] ?? 'its host'} with an empty .env; it must refuse without ${keys.join(', ')}`,
      );
    } catch (error) {
      for (const key of keys)
        if (!messageOf(error).includes(key))
          fail(`${name}: with an empty .env its refusal does not name ${key}: ${messageOf(error)}`);
    }
  }
  if (spec.generatedKeys?.length && typeof spec.generates === 'function') {
    // Empty in .env, it must start all the same and make its own: on 0.0.0.0 an open API would let
    // anyone who reaches the port chat and run tools. Set in .env, that value must win.
    const keys = spec.generatedKeys;
    for (const key of keys) {
      if (!interpolate(environment[key] ?? '', new Map()).used.includes(key))
        fail(
          `${name}: compose must pass ${key} from .env (\`${key}: \${${key}:-}\`), so a fixed one set there wins`,
        );
      if (!isCopy && exampleVars.get(key))
        fail(`.env.example: ${key} must stay empty: a value published there would be everyone's secret`);
    }
    const host = effective[spec.hostVar];
    try {
      if (!spec.generates(spec.loadEnv(effective)))
        fail(
          `${name}: with an empty .env on ${host} its API would be open; it must make its own ${keys.join(', ')} at start (${spec.generatedSecrets?.generates})`,
        );
      const secret = randomBytes(32).toString('hex');
      const fixed = Object.fromEntries(keys.map((key) => [key, secret]));
      const withFixed = spec.loadEnv({ ...image.env, ...resolve(new Map(Object.entries(fixed))) });
      if (spec.generates(withFixed) || keys.some((key) => withFixed[key] !== secret))
        fail(`${name}: ${keys.join(', ')} set in .env does not win over the one it makes at start`);
    } catch (error) {
      fail(
        `${name}: with ${keys.join(', ')} empty or set in .env, ${spec.dir} rejects its environment: ${messageOf(error)}`,
      );
    }
  }
  let parsed;
  /** @type {Array<[string, Record<string, string>]>} */
  const environments = [
    ['an empty .env', effective],
    ['.env.example', { ...image.env, ...resolve(withStandIns(exampleVars)) }],
  ];
  for (const [label, env] of environments) {
    try {
      const result = spec.loadEnv(env);
      if (label === 'an empty .env') parsed = result;
    } catch (error) {
      fail(`${name}: with ${label}, ${spec.dir} rejects its environment: ${messageOf(error)}`);
    }
  }
  if (!parsed) continue;

  // Binding: 0.0.0.0 inside the container, loopback by default outside it.
  const defaults = spec.loadEnv({});
  if (parsed[spec.hostVar] !== '0.0.0.0') fail(`${name}: ${spec.hostVar} must be 0.0.0.0 in the container`);
  if (defaults[spec.hostVar] !== '127.0.0.1')
    fail(`${name}: ${spec.hostVar} should default to 127.0.0.1 outside containers`);

  // Ports.
  const port = parsed[spec.portVar];
  if (!port) fail(`${name}: ${spec.portVar} must be a fixed port in compose`);
  if (spec.localPort !== undefined && port !== spec.localPort) {
    fail(`${name}: listens on ${port} in compose but ${spec.localPort} in local runs`);
  }
  if (spec.localPort !== undefined && defaults[spec.portVar] !== spec.localPort) {
    fail(
      `${name}: ${spec.portVar} defaults to ${defaults[spec.portVar]}, the check expects ${spec.localPort}`,
    );
  }
  // A second port (the agent's sandbox for views): fixed in compose, the local default, and
  // published wherever the main port is, since the same browser needs both.
  const extraPorts = (spec.extraPorts ?? []).map((extra) => ({ ...extra, port: parsed[extra.portVar] }));
  for (const extra of extraPorts) {
    if (!extra.port) fail(`${name}: ${extra.portVar} must be a fixed port in compose`);
    else if (extra.port !== extra.localPort)
      fail(`${name}: ${extra.portVar} is ${extra.port} in compose but ${extra.localPort} in local runs`);
    if (defaults[extra.portVar] !== extra.localPort)
      fail(
        `${name}: ${extra.portVar} defaults to ${defaults[extra.portVar]}, the check expects ${extra.localPort}`,
      );
    if (extra.port === port) fail(`${name}: ${extra.portVar} and ${spec.portVar} are both ${port}`);
  }
  const listening = [port, ...extraPorts.map((extra) => extra.port)];
  const mappings = (service.ports ?? []).map(portMapping);
  for (const { text, hostIp, published: hostPort, target } of mappings) {
    if (!listening.includes(target))
      fail(`${name}: ports ${text} targets ${target}, the service listens on ${listening.join(', ')}`);
    // A copy runs next to the package's own service, so it publishes another host port.
    if (!isCopy && hostPort !== target)
      fail(`${name}: ports ${text} publishes ${hostPort}, local runs use ${target}`);
    if (hostIp !== '127.0.0.1')
      fail(`${name}: ports ${text} should publish on 127.0.0.1 only, as local runs bind`);
  }
  if (mappings.some((mapping) => mapping.target === port)) {
    for (const extra of extraPorts) {
      const mapping = mappings.find((item) => item.target === extra.port);
      if (!mapping) {
        fail(
          `${name}: publishes ${spec.portVar} but not ${extra.portVar} (${extra.port}), which the browser needs too`,
        );
        continue;
      }
      // The page takes the other port at its own host name unless told the origin.
      const origins = [`http://127.0.0.1:${mapping.published}`, `http://localhost:${mapping.published}`];
      const origin = parsed[extra.originVar];
      if (mapping.published !== extra.port && !origins.includes(origin))
        fail(
          `${name}: publishes ${extra.portVar} on ${mapping.published}, so ${extra.originVar} must be ${origins[0]} (it is ${origin ?? 'unset'})`,
        );
    }
  }
  for (const entry of service.expose ?? []) {
    if (!listening.includes(Number(String(entry).split('/')[0])))
      fail(`${name}: expose ${entry}, the service listens on ${listening.join(', ')}`);
  }
  for (const listened of listening)
    if (!image.expose.includes(listened))
      fail(`${where}: EXPOSE ${image.expose.join(' ') || '(none)'}, the service listens on ${listened}`);

  // Healthchecks: compose's and the image's point at this service's port; the path is checked live.
  const healthUrls = [];
  const composeTest = service.healthcheck?.test;
  if (!composeTest) fail(`${name}: no healthcheck in compose`);
  /** @type {Array<[string, string, Record<string, string>]>} */
  const healthchecks = [
    [
      'compose healthcheck',
      Array.isArray(composeTest) ? composeTest.join(' ') : String(composeTest ?? ''),
      {},
    ],
    ['Dockerfile HEALTHCHECK', image.healthcheck ?? '', effective],
  ];
  for (const [label, text, env] of healthchecks) {
    // The image's check may read its port from the environment: `(process.env.PORT||3000)`.
    const expanded = text.replace(
      /\(process\.env\.([A-Z_]+)\|\|(\d+)\)/g,
      (_, key, fallback) => `${env[key] || fallback}`,
    );
    const url = /http:\/\/([^'"\s/:]+):(\d+)(\/[^'"\s)]*)/.exec(expanded.replace(/'\+|\+'/g, ''));
    if (!url) {
      fail(`${name}: ${label} has no http://host:port/path URL`);
      continue;
    }
    if (url[1] !== '127.0.0.1' && url[1] !== 'localhost')
      fail(`${name}: ${label} calls ${url[1]}, not loopback`);
    if (Number(url[2]) !== port)
      fail(`${name}: ${label} calls port ${url[2]}, the service listens on ${port}`);
    healthUrls.push(url[3]);
  }

  // Paths the service writes to: named volumes, declared at the top level.
  const volumes = (service.volumes ?? []).map((v) =>
    typeof v === 'string' ? v.split(':') : [v.source, v.target],
  );
  if (parsed.DATA_DIR !== undefined && !parsed.DATABASE_URL) {
    const mount = volumes.find(([, target]) => target === parsed.DATA_DIR);
    if (!mount)
      fail(`${name}: DATA_DIR ${parsed.DATA_DIR} is not on a volume; tasks would vanish with the container`);
    else if (!(mount[0] in (compose.volumes ?? {})))
      fail(`${name}: volume ${mount[0]} is not a named volume`);
  }

  plans.push({
    name,
    spec,
    service,
    environment,
    image,
    stage,
    dockerfile,
    port,
    extraPorts,
    healthUrls,
    effective,
    parsed,
    /** @type {Array<{ key: string, target: string, url: URL }>} */
    links: [],
  });
}

// depends_on, for every service: it waits for a healthcheck, and for a profiled service only from
// inside that profile (from outside, compose would refuse to start without the profile).
for (const [name, service] of Object.entries(composeServices)) {
  const dependsOn = service.depends_on ?? {};
  if (Array.isArray(dependsOn)) {
    fail(`${name}: depends_on as a list cannot wait for healthy services`);
    continue;
  }
  for (const [dependency, condition] of Object.entries(dependsOn)) {
    const target = composeServices[dependency];
    if (condition?.condition !== 'service_healthy')
      fail(`${name}: depends_on ${dependency} without condition: service_healthy`);
    if (!target) fail(`${name}: depends_on ${dependency}, which is no service`);
    else if (!target.healthcheck) fail(`${name}: depends_on ${dependency}, which has no healthcheck`);
    else if (target.profiles?.length && condition?.required !== false) {
      const own = service.profiles ?? [];
      if (own.length === 0 || !own.every((profile) => target.profiles.includes(profile)))
        fail(`${name}: depends_on ${dependency}, which only runs under a profile: add required: false`);
    }
  }
}

/** The port numbers a service from an image declares it serves on: expose, and the targets of ports. */
const imagePorts = (service) => [
  ...(service.expose ?? []).map((entry) => Number(String(entry).split('/')[0])),
  ...(service.ports ?? []).map((entry) => portMapping(entry).target),
];

// Links between services: URLs (one, or a comma list) name a service and its port, and a Host it
// accepts; a call also has a depends_on that waits for it. An identifier (an issuer, a resource, a
// service's own URL) names a service without calling it.
for (const plan of plans) {
  const dependsOn = plan.service.depends_on ?? {};
  for (const [key, value] of Object.entries(plan.effective)) {
    for (const item of value.split(',').map((part) => part.trim())) {
      let url;
      try {
        url = new URL(item);
      } catch {
        continue;
      }
      const calls = url.hostname !== plan.name && !plan.spec.identifierVars.includes(key);
      const needsDependsOn = () => {
        if (calls && dependsOn[url.hostname]?.condition !== 'service_healthy') {
          fail(
            `${plan.name}: ${key} calls ${url.hostname}; add depends_on ${url.hostname}: condition: service_healthy`,
          );
        }
      };
      const target = plans.find((other) => other.name === url.hostname);
      if (!target) {
        // A service from an image: its declared port, and for a proxy (it depends on services of
        // ours) the Host it passes through must be one they accept.
        const service = composeServices[url.hostname];
        if (!service || service.build) continue;
        const declared = imagePorts(service);
        const urlPort = Number(url.port || 80);
        if (!declared.includes(urlPort))
          fail(
            `${plan.name}: ${key} calls ${url.hostname}:${urlPort}, which declares ${declared.join(', ') || 'no port'} (expose)`,
          );
        needsDependsOn();
        for (const backend of Object.keys(service.depends_on ?? {})) {
          const behind = plans.find((other) => other.name === backend);
          if (!behind?.spec.hostsVar) continue;
          const allowed = behind.parsed[behind.spec.hostsVar] ?? [];
          if (!allowed.includes(url.hostname))
            fail(
              `${backend}: ${behind.spec.hostsVar} must include ${url.hostname}: ${plan.name} calls it through ${url.hostname}, which passes the Host on`,
            );
        }
        continue;
      }
      plan.links.push({ key, target: target.name, url });
      if (Number(url.port || 80) !== target.port)
        fail(`${plan.name}: ${key}=${value}, but ${target.name} listens on ${target.port}`);
      needsDependsOn();
      if (target.spec.hostsVar) {
        const allowed = target.parsed[target.spec.hostsVar] ?? [];
        if (!allowed.includes(url.hostname))
          fail(
            `${target.name}: ${target.spec.hostsVar} must include ${url.hostname}, which ${plan.name} ${calls ? 'calls it by' : `names it by in ${key}`}`,
          );
      }
    }
  }
}

// .env.example documents exactly what compose reads from .env.
for (const key of interpolated)
  if (!exampleVars.has(key)) fail(`.env.example: ${key} is read by docker-compose.yml but not documented`);
for (const key of exampleVars.keys())
  if (!interpolated.has(key))
    fail(`.env.example: ${key} is documented but docker-compose.yml never reads it`);

const ignore = dockerignore();
for (const item of MUST_IGNORE) if (!ignore.ignored(item)) fail(`.dockerignore must exclude ${item}`);
if (ignore.ignored('pnpm-lock.yaml') || ignore.ignored('patches/x.patch') || ignore.ignored('adr/001.md')) {
  fail('.dockerignore excludes the lockfile, the patches or the ADRs, which the build needs');
}

// One build stage for every image: a second Dockerfile would be a second copy of it.
if (dockerfiles.size > 1)
  fail(
    `compose builds from ${dockerfiles.size} Dockerfiles (${[...dockerfiles.keys()].map(rel).join(', ')}); ` +
      'every service is a target of the one at the root, sharing its build stage',
  );
const targets = [...dockerfiles.keys()].map(
  (file) =>
    `${rel(file)}: ${[...new Set(plans.filter((p) => p.dockerfile === file).map((p) => p.stage.name))].join(', ')}`,
);
log(
  `static: ${plans.length} services (${plans.map((p) => `${p.name}:${p.port}`).join(', ')}), ` +
    `${interpolated.size} .env variables, targets (${targets.join('; ')}) (${elapsed(started)})`,
);

// ---------------------------------------------------------------------------------------------
// 2 and 3. Start the services, from dist/ and then from the replayed build.

// What this check cannot start: a service from an image (no engine here), and whatever depends on one.
const skipped = new Map();
for (let changed = true; changed; ) {
  changed = false;
  for (const plan of plans) {
    if (skipped.has(plan.name)) continue;
    for (const [dependency, condition] of Object.entries(plan.service.depends_on ?? {})) {
      // `required: false`: compose starts the service without it too, and so does this check.
      if (condition?.required === false) continue;
      const service = composeServices[dependency];
      const reason = skipped.has(dependency)
        ? `depends_on ${dependency}, which is skipped`
        : service && !service.build
          ? `depends_on ${dependency}, a service from an image (${service.image}) this check cannot start`
          : undefined;
      if (reason) {
        skipped.set(plan.name, reason);
        changed = true;
        break;
      }
    }
  }
}
const runnable = plans.filter((plan) => !skipped.has(plan.name));
for (const [name, reason] of skipped)
  log(`skip: ${name} ${reason}; not started from dist/ nor from the build replay`);

/** `value` with every URL (also in a comma list) that names a started service pointed at its local port. */
function localUrls(value, ports) {
  return value
    .split(',')
    .map((item) => {
      let url;
      try {
        url = new URL(item.trim());
      } catch {
        return item;
      }
      if (!ports.has(url.hostname)) return item;
      // Only the authority changes, so an issuer keeps its exact form (no trailing slash added).
      return item.replace(`//${url.host}`, `//127.0.0.1:${ports.get(url.hostname)}`);
    })
    .join(',');
}

/**
 * Starts every planned service as compose would, in depends_on order, and checks its health URLs.
 * `locate(plan)` says where each one runs: `{ cwd, root }`, with container paths mapped under `root`.
 */
async function startStack(label, locate) {
  const since = Date.now();
  const ports = new Map();
  for (const plan of runnable) ports.set(plan.name, await freePort());
  /** `${service} ${variable}` -> the free port an extra port (the agent's sandbox) gets here. */
  const extraPorts = new Map();
  for (const plan of runnable)
    for (const extra of plan.extraPorts) extraPorts.set(`${plan.name} ${extra.portVar}`, await freePort());
  const running = [];
  // depends_on order: a service starts once everything it depends on is healthy.
  const order = [];
  const needs = (plan) => Object.keys(plan.service.depends_on ?? {}).filter((dep) => ports.has(dep));
  while (order.length < runnable.length) {
    const next = runnable.find(
      (plan) => !order.includes(plan) && needs(plan).every((dep) => order.some((p) => p.name === dep)),
    );
    if (!next) throw new Error('depends_on has a cycle');
    order.push(next);
  }
  try {
    for (const plan of order) {
      const { cwd, root } = locate(plan);
      const env = cleanEnv(allSchemaKeys);
      for (const [key, value] of Object.entries(plan.effective)) {
        let mapped = value;
        if (key === plan.spec.hostVar) mapped = '127.0.0.1';
        else if (key === plan.spec.portVar) mapped = String(ports.get(plan.name));
        else if (value.startsWith('/')) {
          mapped = path.join(root, value);
          fs.mkdirSync(mapped, { recursive: true });
        } else if (plan.links?.some((item) => item.key === key)) {
          mapped = localUrls(value, ports);
        }
        env[key] = mapped;
      }
      // Every copy's sandbox listens on the same fixed port in compose: here each gets its own.
      for (const extra of plan.extraPorts)
        env[extra.portVar] = String(extraPorts.get(`${plan.name} ${extra.portVar}`));
      env.LOG_LEVEL = env.LOG_LEVEL || 'warn';
      const cmd = plan.image.cmd ?? [];
      const entry = path.join(cwd, cmd.at(-1) ?? '');
      if (!fs.existsSync(entry) || cmd.length === 0)
        throw new Error(`${plan.name}: CMD ${cmd.join(' ')} but ${entry} does not exist`);
      const serviceStarted = Date.now();
      const handle = startProcess(`${label} ${plan.name}`, cmd, { cwd, env });
      running.push(handle);
      const base = `http://127.0.0.1:${ports.get(plan.name)}`;
      for (const healthPath of new Set(plan.healthUrls)) {
        // An agent with AGENT_API_TOKEN tells a caller without it only "up"; this check needs more.
        const caller = env.AGENT_API_TOKEN ? { authorization: `Bearer ${env.AGENT_API_TOKEN}` } : {};
        const response = await waitHealthy(handle, base + healthPath, caller);
        log(`${label}: ${plan.name} GET ${healthPath} -> ${response.status} (${elapsed(serviceStarted)})`);
        if (plan.spec.name === 'agent') {
          // Also proves a signed-in agent got a token: without one the server lists no tools.
          const body = JSON.parse(response.body);
          const demo = runnable.find((p) => p.name === 'demo-model');
          if (demo && !String(body.model?.baseUrl ?? '').includes(`:${ports.get(demo.name)}/`)) {
            fail(
              `${label}: ${plan.name} does not use the demo-model service (model ${JSON.stringify(body.model)})`,
            );
          }
          if (!(body.tools > 0))
            fail(`${label}: ${plan.name} found no tools on the MCP server: ${response.body}`);
        }
      }
      for (const extra of plan.extraPorts) {
        const extraPort = extraPorts.get(`${plan.name} ${extra.portVar}`);
        const status = (
          await get(`http://127.0.0.1:${extraPort}${extra.healthPath}`).catch(() => ({ status: 0 }))
        ).status;
        log(`${label}: ${plan.name} ${extra.portVar} GET ${extra.healthPath} -> ${status || 'no answer'}`);
        if (status !== 200)
          fail(
            `${label}: ${plan.name} does not answer on ${extra.portVar} (${extra.healthPath}: ${status || 'no answer'})`,
          );
      }
      // Called by its service name, as other containers do; a foreign name still gets 403.
      for (const other of runnable) {
        for (const link of other.links ?? []) {
          if (link.target !== plan.name) continue;
          const status = (await get(`${base}${plan.healthUrls[0]}`, `${link.url.hostname}:${plan.port}`))
            .status;
          if (status !== 200)
            fail(`${label}: ${plan.name} answers Host ${link.url.hostname}:${plan.port} with ${status}`);
        }
      }
      if (plan.spec.hostsVar) {
        const status = (await get(`${base}${plan.healthUrls[0]}`, 'evil.example:80')).status;
        if (status !== 403) fail(`${label}: ${plan.name} answers a foreign Host with ${status}, not 403`);
      }
    }
    log(`${label}: ${running.length} services healthy (${elapsed(since)})`);
  } finally {
    const stopping = Date.now();
    for (const handle of running.reverse()) await stopProcess(handle);
    log(`${label}: stopped in ${elapsed(stopping)}`);
  }
}

const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'check-compose-'));
const cleanup = () => {
  if (args.keep) return;
  const removing = Date.now();
  fs.rmSync(tempRoot, { recursive: true, force: true });
  log(`removed ${tempRoot} (${elapsed(removing)})`);
};
process.once('SIGINT', () => {
  for (const handle of children) handle.child.kill('SIGKILL');
  cleanup();
  process.exit(130);
});

try {
  if (problems.length === 0) {
    // One root per service for container paths: two copies of the server keep two task databases.
    await startStack('dist', (plan) => ({
      cwd: path.join(ROOT, plan.spec.dir),
      root: path.join(tempRoot, 'dist-run', plan.name),
    }));
  }

  if (problems.length === 0 && !args['skip-build']) {
    // COPY from the build context as Docker sends it: everything .dockerignore lets through. A
    // directory's contents land in dest, as with Docker.
    const copyContext = (source, dest) => {
      const from = path.posix.normalize(source).replace(/\/+$/, '') || '.';
      const copyOne = (relPath, target) => {
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.cpSync(path.join(ROOT, relPath), target, { verbatimSymlinks: true });
      };
      if (!fs.statSync(path.join(ROOT, from)).isDirectory()) {
        copyOne(
          from,
          source.endsWith('/') || dest.endsWith('/') ? path.join(dest, path.basename(from)) : dest,
        );
        return;
      }
      const walk = (relDir) => {
        for (const entry of fs.readdirSync(path.join(ROOT, relDir), { withFileTypes: true })) {
          const relPath = relDir === '.' ? entry.name : path.posix.join(relDir, entry.name);
          if (ignore.ignored(relPath) && !(entry.isDirectory() && ignore.hasNegation)) continue;
          if (entry.isDirectory()) walk(relPath);
          else if (!ignore.ignored(relPath))
            copyOne(relPath, path.join(dest, path.posix.relative(from, relPath)));
        }
      };
      walk(from);
    };
    /** Container path -> replay path, under one root per stage. */
    const inRoot = (root, containerPath) => path.join(root, containerPath);

    const builds = new Map();
    for (const [dockerfile, stages] of dockerfiles) {
      const build = stages.find((s) => s.name === 'build');
      const root = path.join(tempRoot, `${rel(dockerfile).replaceAll('/', '-')}-build`);
      const since = Date.now();
      let workdir = '/';
      log(`replay: ${rel(dockerfile)}, stage build, in ${root}`);
      for (const { op, args: text, line } of stageChain(build)) {
        const cwd = inRoot(root, workdir);
        if (op === 'WORKDIR') {
          workdir = path.posix.resolve(workdir, text);
          fs.mkdirSync(inRoot(root, workdir), { recursive: true });
        } else if (op === 'COPY' && build.instructions.some((i) => i.line === line)) {
          if (/--from=/.test(text))
            throw new Error(`${rel(dockerfile)}:${line}: COPY --from in the build stage is not replayed`);
          const parts = text.split(/\s+/).filter((part) => !part.startsWith('--'));
          const dest = path.posix.resolve(workdir, parts.pop());
          const copyStarted = Date.now();
          for (const source of parts) copyContext(source, inRoot(root, dest));
          log(`  ${rel(dockerfile)}:${line} COPY ${text} (${elapsed(copyStarted)})`);
        } else if (op === 'RUN' && build.instructions.some((i) => i.line === line)) {
          const command = text.replace(/^(--\S+\s+)*/, '');
          if (/(^|\s)\/(?!dev\/null)/.test(command)) {
            throw new Error(
              `${rel(dockerfile)}:${line}: RUN uses an absolute path; keep build paths relative to WORKDIR`,
            );
          }
          fs.mkdirSync(cwd, { recursive: true });
          const ms = await runStep(commandArgv(command), { cwd, env: cleanEnv(new Set()) }).catch((error) => {
            throw new Error(`${rel(dockerfile)}:${line}: RUN ${command} failed with ${error.message}`);
          });
          log(`  ${rel(dockerfile)}:${line} RUN ${command} (${(ms / 1000).toFixed(1)} s)`);
        } else if (op === 'RUN' || op === 'COPY') {
          log(`  ${rel(dockerfile)}:${line} ${op} ${text} (base stage, not replayed: it sets up the image)`);
        }
      }
      builds.set(dockerfile, root);
      log(`replay: ${rel(dockerfile)} built in ${elapsed(since)}`);
    }

    // Assemble each runtime stage from its COPY lines, once per image: copies of a service share it.
    const assembling = Date.now();
    const runtimeRoots = new Map();
    const images = new Map();
    for (const plan of runnable) {
      const imageKey = `${plan.dockerfile}#${plan.stage.name}`;
      const assembled = images.get(imageKey);
      if (assembled) {
        // The same files; container paths (DATA_DIR) under a root of its own.
        runtimeRoots.set(plan.name, { cwd: assembled.cwd, root: path.join(tempRoot, `${plan.name}-paths`) });
        continue;
      }
      const root = path.join(tempRoot, `${plan.name}-runtime`);
      let workdir = '/';
      for (const { op, args: text, line } of plan.stage.instructions) {
        if (op === 'WORKDIR') workdir = path.posix.resolve(workdir, text);
        if (op === 'RUN')
          log(`  ${rel(plan.dockerfile)}:${line} RUN ${text} (runtime stage, not replayed: needs an engine)`);
        if (op !== 'COPY') continue;
        const from = /--from=(\S+)/.exec(text)?.[1];
        const parts = text.split(/\s+/).filter((part) => !part.startsWith('--'));
        const dest = inRoot(root, path.posix.resolve(workdir, parts.pop()));
        for (const source of parts) {
          if (from) {
            if (from !== 'build')
              throw new Error(`${rel(plan.dockerfile)}:${line}: COPY --from=${from} is not replayed`);
            const src = inRoot(builds.get(plan.dockerfile), path.posix.resolve('/', source));
            fs.mkdirSync(dest, { recursive: true });
            // `cp -a` keeps pnpm's relative symlinks, as COPY does, and is several times faster than fs.cpSync.
            execFileSync('cp', ['-a', fs.statSync(src).isDirectory() ? `${src}/.` : src, dest]);
          } else {
            copyContext(source, dest);
          }
        }
      }
      runtimeRoots.set(plan.name, { cwd: inRoot(root, plan.image.workdir), root });
      images.set(imageKey, runtimeRoots.get(plan.name));
    }

    log(
      `replay: ${images.size} runtime stages assembled from their COPY lines, for ${runnable.length} services (${elapsed(assembling)})`,
    );

    // The ADRs must be where the server's dist/resources/adr.js looks for them.
    const server = plans.find((plan) => plan.name === 'mcp-server');
    if (server) {
      const { cwd } = runtimeRoots.get(server.name);
      const adrModule = pathToFileURL(path.join(cwd, 'dist/resources/adr.js')).href;
      const adrDir = execFileSync(
        process.execPath,
        ['-e', `import(${JSON.stringify(adrModule)}).then((m) => console.log(m.DEFAULT_ADR_DIR))`],
        {
          cwd,
          encoding: 'utf8',
        },
      ).trim();
      const adrs = fs.existsSync(adrDir) ? fs.readdirSync(adrDir).filter((file) => file.endsWith('.md')) : [];
      if (adrs.length === 0)
        fail(`image ${server.name}: no ADRs at ${adrDir} (dist/resources/adr.js's DEFAULT_ADR_DIR)`);
      else
        log(
          `image ${server.name}: ${adrs.length} ADRs at ${path.relative(runtimeRoots.get(server.name).root, adrDir)}`,
        );
    }

    // The MCP Apps views (views/build.mjs's HTML files) must be where dist/resources/views.js reads
    // them, every one the local build made: a server without them answers each view's read with an error.
    if (server) {
      const { cwd, root } = runtimeRoots.get(server.name);
      const viewsModule = pathToFileURL(path.join(cwd, 'dist/resources/views.js')).href;
      const viewsDir = execFileSync(
        process.execPath,
        ['-e', `import(${JSON.stringify(viewsModule)}).then((m) => console.log(m.DEFAULT_VIEWS_DIR))`],
        { cwd, encoding: 'utf8' },
      ).trim();
      const htmlIn = (dir) =>
        fs.existsSync(dir) ? fs.readdirSync(dir).filter((file) => file.endsWith('.html')) : [];
      const built = htmlIn(path.join(ROOT, server.spec.dir, 'dist/views'));
      const inImage = htmlIn(viewsDir);
      const missing = built.filter((file) => !inImage.includes(file));
      if (built.length === 0) fail(`${server.spec.dir}/dist/views holds no view: run its build first`);
      else if (missing.length > 0)
        fail(
          `image ${server.name}: no ${missing.join(', ')} at ${path.relative(root, viewsDir)} (DEFAULT_VIEWS_DIR)`,
        );
      else log(`image ${server.name}: ${inImage.length} views at ${path.relative(root, viewsDir)}`);
    }

    // One package per service: the agent's image holds the agent, never the server, the demo model or
    // the authorization server.
    const agent = plans.find((plan) => plan.name === 'agent');
    if (agent) {
      const { cwd } = runtimeRoots.get(agent.name);
      const scope = path.join(cwd, 'node_modules', '@mcp-workshop');
      const inside = fs.existsSync(scope) ? fs.readdirSync(scope) : [];
      const strays = inside.filter((name) => ['mcp-server', 'demo-model', 'auth-server'].includes(name));
      if (strays.length > 0)
        fail(`image agent: contains ${strays.map((n) => `@mcp-workshop/${n}`).join(', ')}`);
      else log(`image agent: workspace packages inside: ${inside.join(', ') || 'none'}`);
      // The chat page, and the chunk its first view loads (app-view.ts, imported lazily), as built.
      const assets = path.join(cwd, 'dist/web/assets');
      const files = fs.existsSync(assets) ? fs.readdirSync(assets) : [];
      const entry = files.find((file) => /^index-.*\.js$/.test(file));
      const lazy = files.find((file) => /^app-view-.*\.js$/.test(file));
      if (!fs.existsSync(path.join(cwd, 'dist/web/index.html')) || !entry)
        fail('image agent: no chat page at dist/web (index.html and assets/index-*.js)');
      else if (!lazy || !fs.readFileSync(path.join(assets, entry), 'utf8').includes(lazy))
        fail(`image agent: the page's ${entry} does not load an app-view chunk that is in dist/web/assets`);
      else log(`image agent: the chat page and its lazily loaded ${lazy}`);
    }

    if (problems.length === 0) await startStack('image', (plan) => runtimeRoots.get(plan.name));
  }
} catch (error) {
  fail(messageOf(error));
} finally {
  for (const handle of children) handle.child.kill('SIGKILL');
  if (args.keep) log(`kept ${tempRoot}`);
  cleanup();
}

if (problems.length > 0) {
  console.error(`\ncheck-compose: ${problems.length} problem(s):`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.error(
  `check-compose: docker-compose.yml, the Dockerfile and the services agree (${elapsed(started)})`,
);
