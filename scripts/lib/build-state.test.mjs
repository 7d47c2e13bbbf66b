// @ts-check
// Tests of scripts/lib/build-state.mjs; run with `node --test scripts/lib/`. Each workspace is a
// temporary folder with fake packages, and file times are set by hand, so nothing is built.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { buildablePackages, readStamp, staleReason, writeStamp } from './build-state.mjs';

const roots = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

const HOUR = 3_600_000;
/** Everything in the fake workspace was last touched an hour before the build. */
const BUILT_AT = Date.now() - HOUR;

function write(root, file, text = '') {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  return full;
}

/** Sets the time of `file` and of every folder up to `root`, as an edit long ago would leave them. */
function age(root, file, time = BUILT_AT - HOUR) {
  let current = path.join(root, file);
  while (current.startsWith(root)) {
    fs.utimesSync(current, time / 1000, time / 1000);
    if (current === root) break;
    current = path.dirname(current);
  }
}

/** A workspace with two buildable packages (built) and one without a build script. */
function workspace() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-state-'));
  roots.push(root);
  const files = [
    'package.json',
    'pnpm-lock.yaml',
    'packages/shared/package.json',
    'packages/shared/src/index.ts',
    'packages/shared/dist/index.js',
    'services/agent/package.json',
    'services/agent/src/http.ts',
    'services/agent/dist/http.js',
    'services/web-e2e/package.json',
    'services/web-e2e/src/chat.e2e.test.ts',
  ];
  for (const file of files) {
    const build = file.endsWith('package.json') && !file.includes('web-e2e') && file.includes('/');
    write(root, file, build ? JSON.stringify({ name: file.split('/')[1], scripts: { build: 'tsc' } }) : '{}');
  }
  for (const file of files) age(root, file);
  return root;
}

describe('staleReason', () => {
  it('says nothing to build when no input changed since the build', () => {
    const root = workspace();
    assert.equal(staleReason(root, BUILT_AT), undefined);
  });

  it('builds when no build was recorded', () => {
    assert.equal(staleReason(workspace(), undefined), 'no build recorded yet');
  });

  it('names a source changed since the build', () => {
    const root = workspace();
    fs.utimesSync(path.join(root, 'services/agent/src/http.ts'), new Date(), new Date());
    assert.equal(staleReason(root, BUILT_AT), 'services/agent: src/http.ts changed since the last build');
  });

  it('sees a deleted file through its folder', () => {
    const root = workspace();
    write(root, 'packages/shared/src/old.ts');
    age(root, 'packages/shared/src/old.ts');
    fs.rmSync(path.join(root, 'packages/shared/src/old.ts'));
    assert.equal(staleReason(root, BUILT_AT), 'packages/shared: src changed since the last build');
  });

  it('builds after a root setting changed (a new lockfile), or when a package has no dist', () => {
    const root = workspace();
    fs.utimesSync(path.join(root, 'pnpm-lock.yaml'), new Date(), new Date());
    assert.equal(staleReason(root, BUILT_AT), 'pnpm-lock.yaml changed since the last build');
    const other = workspace();
    fs.rmSync(path.join(other, 'services/agent/dist'), { recursive: true });
    assert.equal(staleReason(other, BUILT_AT), 'services/agent has no dist');
  });

  it('ignores outputs, installs and packages that are not built', () => {
    const root = workspace();
    write(root, 'services/agent/dist/new.js');
    write(root, 'services/agent/node_modules/x/index.js');
    write(root, 'services/agent/.turbo/turbo-build.log');
    write(root, 'services/web-e2e/src/new.e2e.test.ts');
    // The folders holding them are new too; the package folders themselves are inputs, so age them.
    age(root, 'services/agent');
    age(root, 'services/web-e2e');
    assert.equal(staleReason(root, BUILT_AT), undefined);
    assert.deepEqual(
      buildablePackages(root).map((pkg) => pkg.name),
      ['shared', 'agent'],
    );
  });
});

describe('staleReason and scratch copies', () => {
  it("ignores a test's scratch copy of the catalogue inside its package", () => {
    const root = workspace();
    write(root, 'services/agent/.scratch-dev-Ab12Cd/src/tools/shout.ts');
    age(root, 'services/agent');
    assert.equal(staleReason(root, BUILT_AT), undefined);
  });
});

describe('the stamp', () => {
  it('records the time a build started, and reads it back; a missing or garbled stamp is none', () => {
    const root = workspace();
    assert.equal(readStamp(root), undefined);
    writeStamp(root, BUILT_AT);
    assert.equal(readStamp(root), BUILT_AT);
    fs.writeFileSync(path.join(root, 'node_modules/.cache/mcp-workshop/build-started-at'), 'soon');
    assert.equal(readStamp(root), undefined);
  });
});
