// @ts-check
/**
 * Who may import whom, as the house is laid out (ADR 016): the catalogue's source imports no hosting
 * library; the host and the task store import no catalogue, and not each other. Read from the files as
 * text, tests included for the libraries (a host test that imports the catalogue would prove nothing).
 * The catalogue is what a participant edits, so it stays that (issue 39): its lines of source and of
 * tests, the entries at the top of its `src`, no process I/O in its source (the host's runner listens,
 * handles signals and exits) and no bundler config at its root. And only the services `pnpm start`
 * runs have a `start` script, since `turbo run start` starts every one.
 * Checked by `package-boundaries.test.mjs`, which `node --test scripts/lib/` runs in CI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** The catalogue's source may not name these: they are the host's and the task store's business. */
export const HOSTING_LIBRARIES = [
  'express',
  'express-rate-limit',
  '@modelcontextprotocol/node',
  '@modelcontextprotocol/express',
  'pg',
  'kysely',
  'node-sqlite3-wasm',
  'jose',
  '@opentelemetry/*',
  'node:http',
  'node:https',
  'pino',
];

/** The catalogue's source, tests and test support left out, stays small enough to read in a sitting. */
export const MAX_CATALOGUE_LINES = 4_500;

/** The catalogue's tests (its `*.test.*` files, `test-support/` and `test/`) test the catalogue, not the host. */
export const MAX_CATALOGUE_TEST_LINES = 7_000;

/** What a participant sees on opening the catalogue's `src`: folders and files together, at most this many. */
export const MAX_CATALOGUE_ENTRIES = 8;

/**
 * What the catalogue's source may not do, as text: the host's runner (`@mcp-workshop/mcp-host/run`)
 * owns the process, its sockets, its signals and its exit.
 */
export const PROCESS_IO = [
  { what: 'listen', pattern: /\.listen\s*\(/ },
  { what: 'process.exit', pattern: /\bprocess\.exit\b/ },
  { what: 'process.argv', pattern: /\bprocess\.argv\b/ },
  { what: 'a signal handler', pattern: /\bprocess\.(?:on|once|addListener|prependListener)\s*\(/ },
];

/** Bundler configs a package root may hold; the catalogue's is the host's business (`mcp-host-bundle`). */
const BUNDLER_CONFIG = /^(?:rolldown|rollup|vite|webpack|esbuild|tsup|tsdown)\.config\.[cm]?[jt]s$/;

/**
 * Each rule: a package folder, which of its files count, and what they may not import. `manifest`
 * also keeps the names out of its package.json.
 */
export const RULES = [
  {
    dir: 'services/mcp-server',
    files: { roots: ['src'], tests: false },
    forbidden: HOSTING_LIBRARIES,
  },
  {
    dir: 'packages/mcp-host',
    files: { roots: ['src', 'examples'], tests: true },
    forbidden: ['@mcp-workshop/mcp-server', '@mcp-workshop/task-store'],
    manifest: true,
  },
  {
    dir: 'packages/task-store',
    files: { roots: ['src'], tests: true },
    forbidden: ['@mcp-workshop/mcp-server', '@mcp-workshop/mcp-host'],
    manifest: true,
  },
];

/** Every module specifier a text imports or re-exports, statically or with `import()`. */
export function specifiersIn(text) {
  const found = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g);
  return [...found].map((match) => match[1]);
}

/** Whether `specifier` is `name` or one of its subpaths; a name ending in `/*` is a whole scope. */
export function names(specifier, name) {
  if (name.endsWith('/*')) return specifier.startsWith(name.slice(0, -1));
  return specifier === name || specifier.startsWith(`${name}/`);
}

/** The source files of a rule, below `root`. */
export function filesOf(root, rule) {
  const walk = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || entry.name === 'dist') return [];
        if (!rule.files.tests && entry.name === 'test-support') return [];
        return walk(full);
      }
      if (!/\.(ts|mts|mjs|js)$/.test(entry.name)) return [];
      if (!rule.files.tests && /\.test\.[a-z]+$/.test(entry.name)) return [];
      return [full];
    });
  return rule.files.roots
    .map((name) => path.join(root, rule.dir, name))
    .filter((dir) => fs.existsSync(dir))
    .flatMap(walk);
}

/** Every import a rule forbids, as `file: specifier`, and every forbidden name its package.json lists. */
export function breaches(root, rule) {
  const found = filesOf(root, rule).flatMap((file) =>
    specifiersIn(fs.readFileSync(file, 'utf8'))
      .filter((specifier) => rule.forbidden.some((name) => names(specifier, name)))
      .map((specifier) => `${path.relative(root, file)}: ${specifier}`),
  );
  if (rule.manifest) {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, rule.dir, 'package.json'), 'utf8'));
    const listed = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap(
      (field) => Object.keys(manifest[field] ?? {}),
    );
    for (const name of listed.filter((dep) => rule.forbidden.some((forbidden) => names(dep, forbidden))))
      found.push(`${rule.dir}/package.json: ${name}`);
  }
  return found;
}

/** The names at the top of the catalogue's `src`, tests and folders included, as `ls` shows them. */
export function catalogueEntries(root) {
  return fs.readdirSync(path.join(root, 'services/mcp-server/src')).filter((name) => !name.startsWith('.'));
}

const CATALOGUE_RULE = RULES.find((candidate) => candidate.dir === 'services/mcp-server');

const linesOf = (files) =>
  files.reduce((sum, file) => sum + fs.readFileSync(file, 'utf8').split('\n').length - 1, 0);

/** Lines of the catalogue's source, as the rule for it counts files. */
export function catalogueLines(root) {
  return linesOf(filesOf(root, CATALOGUE_RULE));
}

/** The catalogue's test files: `*.test.*` anywhere in `src` and `views`, and all of `test-support/` and `test/`. */
export function catalogueTestFiles(root) {
  const all = filesOf(root, {
    dir: 'services/mcp-server',
    files: { roots: ['src', 'views', 'test'], tests: true },
  });
  const source = new Set(filesOf(root, CATALOGUE_RULE));
  const views = path.join(root, 'services/mcp-server/views');
  // views/ holds the views' own code (bundled for the browser) beside their tests: only the tests count.
  return all.filter((file) => !source.has(file) && (!file.startsWith(views) || /\.test\.[a-z]+$/.test(file)));
}

/** Lines of the catalogue's tests. */
export function catalogueTestLines(root) {
  return linesOf(catalogueTestFiles(root));
}

/** Every process I/O in the catalogue's source, as `file:line: what`. */
export function processIoBreaches(root) {
  return filesOf(root, CATALOGUE_RULE).flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        PROCESS_IO.filter(({ pattern }) => pattern.test(line)).map(
          ({ what }) => `${path.relative(root, file)}:${index + 1}: ${what}`,
        ),
      ),
  );
}

/** Bundler configs at the catalogue's root. */
export function catalogueBundlerConfigs(root) {
  return fs.readdirSync(path.join(root, 'services/mcp-server')).filter((name) => BUNDLER_CONFIG.test(name));
}

/**
 * The packages `pnpm start` (`turbo run start`) runs: the deployable services, each on a port of its
 * own. Any other package with a `start` script would be started beside them, as the conformance server
 * once was, on the catalogue's port 3000.
 */
export const STARTED_SERVICES = ['services/mcp-server', 'services/agent', 'services/demo-model'];

/** The workspace's package folders, as pnpm-workspace.yaml's `dir/*` patterns list them. */
export function workspacePackages(root) {
  const { packages = [] } = parse(fs.readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8'));
  const patterns = packages.filter((pattern) => !pattern.startsWith('!'));
  return patterns.flatMap((pattern) => {
    const base = pattern.endsWith('/*') ? pattern.slice(0, -2) : undefined;
    const dirs = base
      ? fs
          .readdirSync(path.join(root, base), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${base}/${entry.name}`)
      : [pattern];
    return dirs.filter((dir) => fs.existsSync(path.join(root, dir, 'package.json')));
  });
}

/**
 * Every package that breaks the rule for `start`: one outside `STARTED_SERVICES` that has a `start`
 * script, or a listed service without one.
 */
export function startScriptBreaches(root, started = STARTED_SERVICES) {
  return workspacePackages(root).flatMap((dir) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
    const start = manifest.scripts?.start;
    if (started.includes(dir))
      return start ? [] : [`${dir}: a service \`pnpm start\` runs, without a start script`];
    return start === undefined
      ? []
      : [
          `${dir}: "start": ${JSON.stringify(start)}, but only ${started.join(', ')} may have one (\`pnpm start\` runs every start script; name it e.g. "serve")`,
        ];
  });
}
