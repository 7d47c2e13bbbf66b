// @ts-check
// Tests of scripts/lib/patch-series.mjs and scripts/patch-series.mjs; run with `node --test scripts/lib/`.
// They read the SDK packages pnpm installed (no network) and build copies in temporary folders.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  buildVariant,
  compose,
  composedPatchPath,
  installedDir,
  installedPackages,
  readSeries,
  seriesPackages,
  splitKey,
  staleComposed,
} from './patch-series.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const series = readSeries(root);
const MARK = 'Patched (mcp-workshop)';

const scratch = [];
after(() => {
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** How often the marker occurs in a folder's dist files. */
function marks(folder) {
  let count = 0;
  for (const file of fs.readdirSync(path.join(folder, 'dist'), { recursive: true })) {
    const full = path.join(folder, 'dist', String(file));
    if (!fs.statSync(full).isFile() || !/\.(mjs|cjs|js|mts|cts)$/.test(full)) continue;
    count += fs.readFileSync(full, 'utf8').split(MARK).length - 1;
  }
  return count;
}

/** How many marker lines a patch adds. */
function addedMarks(entry) {
  const text = fs.readFileSync(path.join(root, 'patches', entry.file), 'utf8');
  return text.split('\n').filter((line) => line.startsWith('+') && line.includes(MARK)).length;
}

/** A throwaway workspace: a copy of patches/ and pnpm-lock.yaml, and the bench's installed packages. */
function scratchWorkspace() {
  const dir = tempDir('patch-series-root-');
  fs.cpSync(path.join(root, 'patches'), path.join(dir, 'patches'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'dev', 'bench'), { recursive: true });
  fs.symlinkSync(
    path.join(root, 'dev', 'bench', 'node_modules'),
    path.join(dir, 'dev', 'bench', 'node_modules'),
  );
  return dir;
}

function cli(...args) {
  return spawnSync(process.execPath, [path.join(root, 'scripts', 'patch-series.mjs'), ...args], {
    encoding: 'utf8',
  });
}

describe('the SDK patch series', () => {
  it('composes exactly the files pnpm applies', () => {
    assert.deepEqual(staleComposed(root), []);
    for (const [key, text] of compose(root)) {
      assert.equal(fs.readFileSync(composedPatchPath(root, key), 'utf8'), text);
    }
  });

  it('names one package per entry, each with a test and an upstream note that exist', () => {
    assert.ok(series.length >= 1);
    for (const entry of series) {
      assert.ok(fs.existsSync(path.join(root, 'patches', entry.file)), entry.file);
      assert.ok(fs.existsSync(path.join(root, entry.test)), entry.test);
      assert.ok(fs.existsSync(path.join(root, entry.note)), entry.note);
      assert.ok(addedMarks(entry) >= 1, `${entry.file} marks what it changes with "${MARK}"`);
    }
    // The index of the notes and patches/README.md list every entry.
    const index = fs.readFileSync(path.join(root, 'doc', 'upstream', 'README.md'), 'utf8');
    const patchesReadme = fs.readFileSync(path.join(root, 'patches', 'README.md'), 'utf8');
    for (const entry of series) {
      assert.ok(
        index.includes(`(${path.basename(entry.note)})`),
        `doc/upstream/README.md links ${entry.note}`,
      );
      assert.ok(patchesReadme.includes(`../${entry.note}`), `patches/README.md links ${entry.note}`);
    }
    // pnpm must apply every composed file: each installed package of the series has its
    // patchedDependencies line, and a package whose patches are not installed has none.
    const workspace = fs.readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8');
    const installed = installedPackages(series);
    for (const key of seriesPackages(series)) {
      const file = path.relative(root, composedPatchPath(root, key));
      if (installed.includes(key))
        assert.ok(workspace.includes(`'${key}': ${file}`), `pnpm-workspace.yaml applies ${file} to ${key}`);
      else assert.ok(!workspace.includes(`'${key}':`), `pnpm-workspace.yaml does not patch ${key}`);
    }
  });

  it('installs a package whose patches are not installed as published, and its variants still carry them', () => {
    for (const key of seriesPackages(series).filter((key) => !installedPackages(series).includes(key))) {
      const [name] = splitKey(key);
      assert.equal(marks(installedDir(root, key)), 0, `${key} as pnpm installed it carries no patch`);
      const modules = buildVariant(root, series.length, path.join(tempDir('patch-series-bench-'), 'v'));
      const added = series
        .filter((entry) => entry.package === key)
        .reduce((sum, e) => sum + addedMarks(e), 0);
      assert.equal(marks(path.join(modules, name)), added, `${key} with the whole series`);
    }
  });

  it('builds the SDK as published, with each first N patches, and with all of them', () => {
    const dir = tempDir('patch-series-variant-');
    for (let upto = 0; upto <= series.length; upto++) {
      const modules = buildVariant(root, upto, path.join(dir, String(upto)));
      for (const key of seriesPackages(series)) {
        const [name] = splitKey(key);
        const expected = series
          .slice(0, upto)
          .filter((entry) => entry.package === key)
          .reduce((sum, entry) => sum + addedMarks(entry), 0);
        assert.equal(marks(path.join(modules, name)), expected, `${name} with ${upto} patches`);
      }
    }
  });

  it('links each copy to the dependencies pnpm installed for it', async () => {
    const modules = buildVariant(root, 0, path.join(tempDir('patch-series-links-'), 'v'));
    assert.ok(fs.lstatSync(path.join(modules, 'zod')).isSymbolicLink());
    const script = path.join(path.dirname(modules), 'probe.mjs');
    fs.writeFileSync(
      script,
      "import { McpServer } from '@modelcontextprotocol/server';\nimport { toNodeHandler } from '@modelcontextprotocol/node';\nconsole.log(typeof McpServer, typeof toNodeHandler);\n",
    );
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    assert.equal(run.stderr, '');
    assert.equal(run.stdout.trim(), 'function function');
  });

  it('refuses a step outside the series', () => {
    const dir = tempDir('patch-series-bad-');
    for (const upto of [-1, series.length + 1, 1.5]) {
      assert.throws(() => buildVariant(root, upto, path.join(dir, 'x')), /--upto must be 0…/);
    }
  });

  it('says which composed file no longer matches its series', () => {
    const workspace = scratchWorkspace();
    const [key] = seriesPackages(series);
    const composed = composedPatchPath(workspace, key);
    fs.writeFileSync(composed, `${fs.readFileSync(composed, 'utf8')}\n`);
    assert.deepEqual(staleComposed(workspace), [
      `${path.relative(workspace, composed)} differs from its series`,
    ]);
  });

  it('fails loudly, naming the patch, when a concern patch no longer applies', () => {
    const workspace = scratchWorkspace();
    const [entry] = series;
    assert.ok(entry, 'the series has a patch');
    const file = path.join(workspace, 'patches', entry.file);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll('\n ', '\n X'));
    assert.throws(() => compose(workspace), new RegExp(`${path.basename(entry.file)} does not apply`));
  });

  it('says which composed file is left over for a package whose patches are not installed', () => {
    const workspace = scratchWorkspace();
    const manifest = path.join(workspace, 'patches', 'series.json');
    const [key] = installedPackages(series);
    const marked = series.map((entry) => (entry.package === key ? { ...entry, installed: false } : entry));
    fs.writeFileSync(manifest, JSON.stringify({ series: marked }));
    assert.ok(!compose(workspace).has(key));
    assert.deepEqual(staleComposed(workspace), [
      `${path.relative(workspace, composedPatchPath(workspace, key))} is left over: ${key}'s patches are not installed ("installed": false)`,
    ]);
  });

  it('rejects a manifest entry without a field or without an exact version', () => {
    const workspace = scratchWorkspace();
    const manifest = path.join(workspace, 'patches', 'series.json');
    const good = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    const [first] = good.series;
    fs.writeFileSync(manifest, JSON.stringify({ series: [{ ...first, test: '' }] }));
    assert.throws(() => readSeries(workspace), /lacks "test"/);
    fs.writeFileSync(
      manifest,
      JSON.stringify({ series: [{ ...first, package: '@modelcontextprotocol/server@^2' }] }),
    );
    assert.throws(() => readSeries(workspace), /not name@exact-version/);
    fs.writeFileSync(manifest, JSON.stringify({ patches: [] }));
    assert.throws(() => readSeries(workspace), /"series" must be a list/);
    fs.writeFileSync(manifest, JSON.stringify({ series: [{ ...first, installed: 'no' }] }));
    assert.throws(() => readSeries(workspace), /"installed" must be true or false/);
    fs.writeFileSync(manifest, JSON.stringify({ series: [first, { ...first, installed: false }] }));
    assert.throws(() => readSeries(workspace), /disagree on "installed"/);
  });

  it('the command line: check passes here, usage errors exit 2', () => {
    const check = cli('check');
    assert.equal(check.status, 0, check.stderr);
    assert.match(check.stdout, new RegExp(`${series.length} patches, composed files match`));
    assert.equal(cli().status, 2);
    assert.equal(cli('variant', tempDir('patch-series-cli-'), 'two').status, 2);
    assert.match(cli('variant', tempDir('patch-series-cli-'), '99').stderr, /--upto must be 0…/);
  });
});
