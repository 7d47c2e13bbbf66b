// @ts-check
/**
 * The check that replaces pnpm's engine-strict (off in .npmrc): every package the repository runs on
 * its lowest supported Node must accept that Node in `engines.node`. Packages reached only through a
 * tool that runs on dev/node22's binary (MCP Inspector) are exempt. Pure: node20-engines.test.mjs feeds
 * it the parsed pnpm-lock.yaml.
 */

/** Dependencies that run on dev/node22's Node, never on the repository's own (scripts/inspector.mjs). */
export const NODE22_ONLY_ROOTS = ['@modelcontextprotocol/inspector'];

/**
 * The packages of `lockfile` (a parsed pnpm-lock.yaml, version 9) reachable from any workspace project
 * without passing through `exemptRoots`, whose `engines.node` does not accept `nodeVersion`:
 * `[{ id: 'undici@8.14.1', node: '>=22.19.0', via: 'services/agent > undici@8.14.1' }]`.
 */
export function packagesRefusingNode(lockfile, nodeVersion, exemptRoots = NODE22_ONLY_ROOTS) {
  const exempt = new Set(exemptRoots);
  const refusing = [];
  const seen = new Set();
  /** @type {Array<{ key: string, via: string }>} */
  const queue = [];
  for (const [importer, project] of Object.entries(lockfile.importers ?? {})) {
    for (const [name, version] of directDependencies(project)) {
      if (!exempt.has(name)) queue.push({ key: `${name}@${version}`, via: `${importer} > ${name}` });
    }
  }
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { key, via } = next;
    if (seen.has(key) || key.includes('@link:')) continue;
    seen.add(key);
    const id = withoutPeers(key);
    const node = lockfile.packages?.[id]?.engines?.node;
    if (node !== undefined && !satisfies(nodeVersion, node)) refusing.push({ id, node, via });
    const snapshot = lockfile.snapshots?.[key] ?? {};
    for (const deps of [snapshot.dependencies, snapshot.optionalDependencies]) {
      for (const [name, version] of Object.entries(deps ?? {})) {
        queue.push({ key: `${name}@${version}`, via: `${via} > ${name}` });
      }
    }
  }
  return refusing;
}

/** Whether `version` ("20.19.0") is inside the npm range `range` ("^20.19.0 || >=22.12.0"). */
export function satisfies(version, range) {
  const v = numbers(version);
  return range.split('||').some((alternative) => {
    const comparators = alternative
      .trim()
      .replace(/([<>=^~]+)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    return comparators.length === 0 || comparators.every((comparator) => matches(v, comparator, range));
  });
}

function matches(v, comparator, range) {
  const match = /^(>=|<=|>|<|=|\^|~)?v?(\d+|[x*])(?:\.(\d+|[x*]))?(?:\.(\d+|[x*]))?$/.exec(comparator);
  if (!match) throw new Error(`Cannot read the engines range "${range}" (at "${comparator}")`);
  const [, op = '', ...raw] = match;
  const given = raw.filter((part) => part !== undefined && part !== 'x' && part !== '*').map(Number);
  const low = [given[0] ?? 0, given[1] ?? 0, given[2] ?? 0];
  const cmp = compare(v, low);
  if (op === '>=') return cmp >= 0;
  if (op === '>') return cmp > 0;
  if (op === '<') return cmp < 0;
  if (op === '<=') return cmp <= 0;
  // ^, ~ and a bare or = version with missing parts are ranges with an upper bound.
  let high;
  if (op === '^') {
    const first = given.findIndex((part) => part !== 0);
    const bump = first === -1 ? Math.max(given.length - 1, 0) : Math.min(first, given.length - 1);
    high = bumped(low, bump);
  } else if (op === '~') {
    high = bumped(low, given.length >= 2 ? 1 : 0);
  } else {
    if (given.length === 3) return cmp === 0;
    high = given.length === 0 ? null : bumped(low, given.length - 1);
  }
  return cmp >= 0 && (high === null || compare(v, high) < 0);
}

function bumped(version, index) {
  return version.map((part, i) => (i < index ? part : i === index ? part + 1 : 0));
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

function numbers(version) {
  const parts = String(version).replace(/^v/, '').split('.').map(Number);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
}

function directDependencies(project) {
  const pairs = [];
  for (const group of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    for (const [name, entry] of Object.entries(project[group] ?? {})) pairs.push([name, entry.version]);
  }
  return pairs;
}

/** "openai@6.30.1(ws@8.23.1)(zod@4.6.7)" → "openai@6.30.1", the key of `packages`. */
function withoutPeers(key) {
  const at = key.indexOf('@', 1);
  const paren = key.indexOf('(', at);
  return paren === -1 ? key : key.slice(0, paren);
}
