// @ts-check
// Tests of scripts/lib/build-then-run.mjs; run with `node --test scripts/lib/`. Each workspace is a
// temporary folder with one fake package; the build is a function that records its calls.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { readStamp, writeStamp } from './build-state.mjs';
import { buildIfStale, parseBuildArgs, runInProcess, UsageError } from './build-then-run.mjs';

const roots = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

const HOUR = 3_600_000;

/** A workspace with one built package, every file an hour old; `stamped`: a build was recorded since. */
function workspace({ stamped }) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-then-run-'));
  roots.push(root);
  const files = {
    'package.json': '{}',
    'packages/shared/package.json': JSON.stringify({ name: 'shared', scripts: { build: 'tsc' } }),
    'packages/shared/src/index.ts': '',
    'packages/shared/dist/index.js': '',
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const old = (Date.now() - 2 * HOUR) / 1000;
  for (const dir of ['', 'packages', 'packages/shared', 'packages/shared/src', 'packages/shared/dist']) {
    fs.utimesSync(path.join(root, dir), old, old);
  }
  for (const file of Object.keys(files)) fs.utimesSync(path.join(root, file), old, old);
  if (stamped) writeStamp(root, Date.now() - HOUR);
  return root;
}

/** A build that succeeds (or exits with `status`) and counts its runs. */
function fakeBuild(status = 0) {
  const build = () => {
    build.runs += 1;
    return status;
  };
  build.runs = 0;
  return build;
}

describe('parseBuildArgs', () => {
  it('takes --verbose before --run, and leaves everything after the entry to the entry', () => {
    assert.deepEqual(
      parseBuildArgs(['--verbose', '--run', 'dev/launcher/dist/cli.js', 'ask', '--json', '--verbose']),
      {
        verbose: true,
        run: { entry: 'dev/launcher/dist/cli.js', args: ['ask', '--json', '--verbose'] },
      },
    );
    assert.deepEqual(parseBuildArgs([]), { verbose: false });
  });

  it('refuses --run without an entry, and an argument it does not know', () => {
    assert.throws(() => parseBuildArgs(['--run']), UsageError);
    assert.throws(() => parseBuildArgs(['--json', '--run', 'cli.js']), /unknown argument --json/);
  });
});

describe('buildIfStale', () => {
  it('builds when no build was recorded, then records the time the build started', () => {
    const root = workspace({ stamped: false });
    const build = fakeBuild();
    const before = Date.now();
    assert.equal(buildIfStale({ root, build, log: () => undefined }), 0);
    assert.equal(build.runs, 1);
    assert.ok((readStamp(root) ?? 0) >= before);
  });

  it('builds when a source changed since the recorded build, saying why when verbose', () => {
    const root = workspace({ stamped: true });
    fs.writeFileSync(path.join(root, 'packages/shared/src/index.ts'), 'export {};');
    const build = fakeBuild();
    const lines = [];
    assert.equal(buildIfStale({ root, build, verbose: true, log: (line) => lines.push(line) }), 0);
    assert.equal(build.runs, 1);
    assert.deepEqual(lines, [
      'build: packages/shared: src/index.ts changed since the last build; running turbo run build',
    ]);
  });

  it('does not build when nothing changed', () => {
    const root = workspace({ stamped: true });
    const build = fakeBuild();
    assert.equal(buildIfStale({ root, build, log: () => undefined }), 0);
    assert.equal(build.runs, 0);
  });

  it('returns a failed build’s status and records no build, so the next run builds again', () => {
    const root = workspace({ stamped: false });
    const build = fakeBuild(2);
    assert.equal(buildIfStale({ root, build, log: () => undefined }), 2);
    assert.equal(readStamp(root), undefined);
  });
});

describe('runInProcess', () => {
  it('runs the entry in this process with the argv `node entry ...args` would give it', async () => {
    const root = workspace({ stamped: true });
    const entry = path.join('bin', 'entry.mjs');
    fs.mkdirSync(path.join(root, 'bin'));
    fs.writeFileSync(path.join(root, entry), 'globalThis.buildThenRunArgv = process.argv.slice(1);\n');
    const saved = process.argv;
    try {
      await runInProcess(root, entry, ['ask', '--json', 'What is 6 * 7?']);
      assert.deepEqual(globalThis.buildThenRunArgv, [
        path.join(root, entry),
        'ask',
        '--json',
        'What is 6 * 7?',
      ]);
    } finally {
      process.argv = saved;
      delete globalThis.buildThenRunArgv;
    }
  });
});

describe('buildIfStale beside a running pnpm dev', () => {
  /** A workspace whose catalogue package was saved after the recorded build. */
  function savedCatalogue({ stamped }) {
    const root = workspace({ stamped });
    const catalogue = path.join(root, 'services/mcp-server');
    fs.mkdirSync(path.join(catalogue, 'src/tools'), { recursive: true });
    fs.mkdirSync(path.join(catalogue, 'dist'));
    fs.writeFileSync(
      path.join(catalogue, 'package.json'),
      JSON.stringify({ name: '@mcp-workshop/mcp-server', scripts: { build: 'tsc' } }),
    );
    fs.writeFileSync(path.join(catalogue, 'src/tools/echo.ts'), 'export {};');
    return root;
  }
  const devStack = { url: 'http://127.0.0.1:3000', startedAt: Date.now() - HOUR };

  it('does not build for a saved catalogue file, and says why when verbose', () => {
    const root = savedCatalogue({ stamped: true });
    const build = fakeBuild();
    const lines = [];
    assert.equal(buildIfStale({ root, build, devStack, verbose: true, log: (line) => lines.push(line) }), 0);
    assert.equal(build.runs, 0);
    assert.deepEqual(lines, [
      'build: pnpm dev at http://127.0.0.1:3000 reloads the catalogue on each save, and nothing else changed; not building',
    ]);
  });

  it('still builds for the same save without a dev stack', () => {
    const root = savedCatalogue({ stamped: true });
    const build = fakeBuild();
    assert.equal(buildIfStale({ root, build, log: () => undefined }), 0);
    assert.equal(build.runs, 1);
  });

  it('still builds when another package changed', () => {
    const root = savedCatalogue({ stamped: true });
    fs.writeFileSync(path.join(root, 'packages/shared/src/index.ts'), 'export {};');
    const build = fakeBuild();
    assert.equal(buildIfStale({ root, build, devStack, log: () => undefined }), 0);
    assert.equal(build.runs, 1);
  });

  it('does not build for a package changed before pnpm dev started, which built it', () => {
    const root = savedCatalogue({ stamped: true });
    fs.writeFileSync(path.join(root, 'packages/shared/src/index.ts'), 'export {};');
    const build = fakeBuild();
    const startedLater = { ...devStack, startedAt: Date.now() + 1_000 };
    assert.equal(buildIfStale({ root, build, devStack: startedLater, log: () => undefined }), 0);
    assert.equal(build.runs, 0);
  });

  it('still builds the launcher, which pnpm dev does not build, when it changed since the recorded build', () => {
    const root = savedCatalogue({ stamped: true });
    const launcher = path.join(root, 'dev/launcher');
    fs.mkdirSync(path.join(launcher, 'src'), { recursive: true });
    fs.mkdirSync(path.join(launcher, 'dist'));
    fs.writeFileSync(
      path.join(launcher, 'package.json'),
      JSON.stringify({ name: 'launcher', scripts: { build: 'tsc' } }),
    );
    fs.writeFileSync(path.join(launcher, 'src/cli.ts'), 'export {};');
    const build = fakeBuild();
    const startedLater = { ...devStack, startedAt: Date.now() + 1_000 };
    assert.equal(buildIfStale({ root, build, devStack: startedLater, log: () => undefined }), 0);
    assert.equal(build.runs, 1);
  });

  it('counts the dev stack’s start as the build when none was recorded', () => {
    const root = savedCatalogue({ stamped: false });
    const build = fakeBuild();
    assert.equal(buildIfStale({ root, build, devStack, log: () => undefined }), 0);
    assert.equal(build.runs, 0);
  });
});
