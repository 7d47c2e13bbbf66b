// @ts-check
// Tests of scripts/lib/machine-paths.mjs, and the check itself over the repository; run with `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ALLOWED, findMachinePaths, isAllowed, scanRepository } from './machine-paths.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** `/a/b`: the paths below are built, so that this file passes its own repository check. */
const dir = (...names) => names.map((name) => `/${name}`).join('');
const found = (text) => findMachinePaths(text).map((hit) => hit.path);

describe('findMachinePaths', () => {
  it('finds home folders, the work folder, root, mktemp names and macOS temp folders', () => {
    assert.deepEqual(found(`"dataDir":"${dir('work', 'main', 'services')}"`), [dir('work')]);
    assert.deepEqual(found(`cd ${dir('work')}`), [dir('work')]);
    assert.deepEqual(found(`see ${dir('home', 'alice', 'mcp-workshop')}/README.md`), [dir('home', 'alice')]);
    assert.deepEqual(found(`"${dir('home', 'alice')}"`), [dir('home', 'alice')]);
    assert.deepEqual(found(`open ${dir('Users', 'bob', 'code')}`), [dir('Users', 'bob')]);
    assert.deepEqual(found(`C:${dir('Users', 'bob', 'code')}`), [`C:${dir('Users', 'bob')}`]);
    assert.deepEqual(found(['C:', 'Users', 'bob', 'code'].join('\\')), [['C:', 'Users', 'bob'].join('\\')]);
    assert.deepEqual(found(`${dir('root', '.npm')} grew`), [dir('root')]);
    assert.deepEqual(found(`removed ${dir('tmp', 'tmp.x81Ab2')}`), [dir('tmp', 'tmp')]);
    assert.deepEqual(found(`${dir('private', 'var', 'folders', 'zz', 'T')}`), [
      dir('private', 'var', 'folders'),
    ]);
  });

  it('gives the 1-based line of each hit', () => {
    const hits = findMachinePaths(`first\nsecond ${dir('work', 'a')}\r\nthird ${dir('home', 'carol', 'b')}`);
    assert.deepEqual(
      hits.map(({ line, path: hit }) => [line, hit]),
      [
        [2, dir('work')],
        [3, dir('home', 'carol')],
      ],
    );
  });

  it('lets placeholder users, URLs, relative paths, named temp folders and look-alike names pass', () => {
    for (const text of [
      `${dir('home', 'you', 'mcp-workshop')}`,
      `C:${dir('Users', 'you', 'mcp-workshop')}`,
      'C:\\\\Users\\\\you\\\\mcp-workshop',
      `${dir('home', '$USER', 'x')} and ${dir('home', '<user>', 'x')}`,
      `https://example.org${dir('home', 'alice', 'x')} and https://example.org${dir('work', 'x')}`,
      `services${dir('work', 'x')} and ~${dir('work', 'x')}`,
      `${dir('tmp', 'check-compose-1H74K2')} and DATA_DIR=${dir('tmp', 'replica-a')}`,
      `${dir('workshop', 'x')} ${dir('homes', 'x')} ${dir('rooted')}`,
      `${dir('path', 'to', 'mcp-workshop', 'services', 'mcp-server', 'data')}`,
      // A regex literal, not a path.
      "[{ type: 'string' }, /root is not an object/]",
    ]) {
      assert.deepEqual(found(text), [], text);
    }
  });
});

describe('isAllowed', () => {
  it('allows only the listed line of the listed file', () => {
    const line = `      - ollama:${dir('root', '.ollama')}`;
    const [hit] = findMachinePaths(line);
    assert.ok(hit);
    assert.equal(isAllowed('docker-compose.yml', hit), true);
    assert.equal(isAllowed('doc/WORKSHOP.md', hit), false);
    const [other] = findMachinePaths(`      - cache:${dir('root', '.cache')}`);
    assert.equal(isAllowed('docker-compose.yml', other), false);
  });

  it('gives a reason for every entry', () => {
    for (const entry of ALLOWED) assert.ok(entry.why.length > 20, entry.file);
  });
});

describe('scanRepository', () => {
  it('finds a machine path in a file git would track, and skips binary and ignored files', () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'machine-paths-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: repo });
      fs.writeFileSync(path.join(repo, 'ok.md'), 'DATA_DIR=/path/to/data\n');
      fs.writeFileSync(path.join(repo, 'bad.md'), `intro\nrun it from ${dir('home', 'dave', 'repo')}\n`);
      fs.writeFileSync(
        path.join(repo, 'image.bin'),
        Buffer.from([0, 1, 2, ...Buffer.from(dir('work', 'x'))]),
      );
      fs.writeFileSync(path.join(repo, '.gitignore'), 'ignored.log\n');
      fs.writeFileSync(path.join(repo, 'ignored.log'), dir('work', 'x'));
      assert.deepEqual(scanRepository(repo), [
        { file: 'bad.md', line: 2, path: dir('home', 'dave'), rule: 'a home folder (Linux)' },
      ]);
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });

  it('finds no machine path in this repository', () => {
    const problems = scanRepository(ROOT).map(
      ({ file, line, path: hit, rule }) => `${file}:${line}: ${hit} (${rule})`,
    );
    assert.deepEqual(
      problems,
      [],
      'These absolute paths exist only on one machine. Write a neutral path (/path/to/mcp-workshop) or ' +
        'compute it (fileURLToPath(import.meta.url), os.tmpdir()); a path inside a container goes in ALLOWED ' +
        `in scripts/lib/machine-paths.mjs, with a reason:\n${problems.join('\n')}`,
    );
  });
});
