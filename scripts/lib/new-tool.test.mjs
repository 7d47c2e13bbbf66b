// Tests of scripts/new-tool.mjs together with the catalogue's tests a new tool touches, in a scratch
// copy of the repository so the working tree stays untouched; run with `node --test scripts/lib/`
// after `pnpm build` (the copy borrows the built workspace packages through its node_modules links).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeScratchCopy, removeScratchCopy } from './scratch-copy.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NAME = 'echo_text';
const SERVER = 'services/mcp-server';
const TOOL = `${SERVER}/src/tools/echo-text.ts`;
const SNAPSHOT = `${SERVER}/src/__snapshots__/server-lists.json.snap`;
/** The tests a new tool touches: the tool lists, and the tool's own test from the template. */
const TESTS = ['src/server-lists.test.ts', 'src/tools/echo-text.test.ts'];
/** One run of those two files takes a few seconds; a run far beyond that hangs, and must not hang CI. */
const RUN_TIMEOUT_MS = 60_000;
/** The scaffold, five vitest runs, biome and tsc, each bounded above; together about half a minute. */
const SUITE_TIMEOUT_MS = 8 * RUN_TIMEOUT_MS;
const RECORDED = 'as recorded for the workshop’s own';

/** Runs vitest on `files` in the copy's catalogue, with CI=true or with no CI at all. */
function vitest(dir, files, { ci }) {
  const env = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  if (ci) env.CI = 'true';
  else delete env.CI;
  const cwd = path.join(dir, SERVER);
  const result = spawnSync(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--reporter=verbose', ...files],
    {
      cwd,
      env,
      encoding: 'utf8',
      timeout: RUN_TIMEOUT_MS,
    },
  );
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/** Runs `fn` with `file` edited by `edit`, and puts the file back afterwards, whatever happens. */
function withEdit(dir, file, edit, fn) {
  const full = path.join(dir, file);
  const before = fs.readFileSync(full, 'utf8');
  const after = edit(before);
  assert.notEqual(after, before, `the edit of ${file} changed nothing; the test needs updating`);
  fs.writeFileSync(full, after);
  try {
    return fn();
  } finally {
    fs.writeFileSync(full, before);
  }
}

describe('pnpm new-tool, then the tests it touches', { timeout: SUITE_TIMEOUT_MS }, () => {
  let dir;
  let snapshotBefore;
  let snapshotFilesBefore;
  const snapshotFiles = () => fs.readdirSync(path.dirname(path.join(dir, SNAPSHOT))).sort();
  before(() => {
    dir = makeScratchCopy(ROOT);
    snapshotBefore = fs.readFileSync(path.join(dir, SNAPSHOT), 'utf8');
    snapshotFilesBefore = snapshotFiles();
    execFileSync(process.execPath, ['scripts/new-tool.mjs', NAME], { cwd: dir, stdio: 'pipe' });
  });
  after(() => {
    if (dir) removeScratchCopy(dir);
  });

  it('passes with CI=true, where vitest writes no snapshot', () => {
    const { status, output } = vitest(dir, TESTS, { ci: true });
    assert.equal(status, 0, output);
    assert.match(output, new RegExp(`${NAME} is declared in its own file`));
  });

  it('passes without CI too, and leaves the snapshot as it was', () => {
    const { status, output } = vitest(dir, TESTS, { ci: false });
    assert.equal(status, 0, output);
    assert.equal(fs.readFileSync(path.join(dir, SNAPSHOT), 'utf8'), snapshotBefore);
    assert.deepEqual(snapshotFiles(), snapshotFilesBefore);
  });

  it('leaves files that pass biome and tsc, as pnpm lint and pnpm typecheck run them', () => {
    const files = [TOOL, TOOL.replace(/\.ts$/, '.test.ts'), `${SERVER}/src/tools/index.ts`];
    const biome = path.join(dir, 'node_modules/@biomejs/biome/bin/biome');
    const lint = spawnSync(process.execPath, [biome, 'check', '--error-on-warnings', ...files], {
      cwd: dir,
      encoding: 'utf8',
      timeout: RUN_TIMEOUT_MS,
    });
    assert.equal(lint.status, 0, `${lint.stdout}\n${lint.stderr}`);
    const tsc = spawnSync(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit'],
      {
        cwd: path.join(dir, SERVER),
        encoding: 'utf8',
        timeout: RUN_TIMEOUT_MS,
      },
    );
    assert.equal(tsc.status, 0, `${tsc.stdout}\n${tsc.stderr}`);
  });

  it('still fails when a workshop tool’s listing changes', () => {
    const edit = (text) => text.replace(/description:\s*/, "description: 'Changed. ' + ");
    const { status, output } = withEdit(dir, `${SERVER}/src/tools/get-time.ts`, edit, () =>
      vitest(dir, [TESTS[0]], { ci: true }),
    );
    assert.notEqual(status, 0, output);
    assert.match(output, new RegExp(`FAIL .*${RECORDED}`));
    assert.match(output, /Changed\. /);
  });

  it('still fails when a workshop tool is no longer registered', () => {
    const edit = (text) => text.replace(/^ {2}getTime,\n/m, '');
    const { status, output } = withEdit(dir, `${SERVER}/src/tools/index.ts`, edit, () =>
      vitest(dir, [TESTS[0]], { ci: true }),
    );
    assert.notEqual(status, 0, output);
    assert.match(output, new RegExp(`FAIL .*${RECORDED}`));
  });

  it('fails, naming the new tool and its field, when an input field loses its description', () => {
    const edit = (text) =>
      text.replace(/(text: z\.string\(\)\.max\(MAX_TEXT_LENGTH\))\.describe\([^)]*\)/, '$1');
    const { status, output } = withEdit(dir, TOOL, edit, () => vitest(dir, [TESTS[0]], { ci: true }));
    assert.notEqual(status, 0, output);
    assert.match(output, new RegExp(`FAIL .*${NAME} is declared in its own file`));
    assert.match(output, new RegExp(`${NAME}: input field "text" needs a \\.describe\\(\\)`));
    assert.doesNotMatch(output, new RegExp(`FAIL .*${RECORDED}`));
  });
});
