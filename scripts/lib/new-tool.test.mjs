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
const SNAPSHOT = `${SERVER}/test/__snapshots__/server-lists.json.snap`;
/** The tests a new tool touches: the tool lists, and the tool's own test from the template. */
const TESTS = ['test/server-lists.test.ts', 'src/tools/echo-text.test.ts'];
/** One run of those two files takes a few seconds; a run far beyond that hangs, and must not hang CI. */
const RUN_TIMEOUT_MS = 60_000;
/** The scaffold, five vitest runs, biome and tsc, each bounded above; together about half a minute. */
const SUITE_TIMEOUT_MS = 8 * RUN_TIMEOUT_MS;
const RECORDED = 'as recorded for the workshop’s own';

/** Runs `node scripts/new-tool.mjs ...args` in the copy; returns its exit status and output. */
function newTool(dir, args) {
  const result = spawnSync(process.execPath, ['scripts/new-tool.mjs', ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, output: `${result.stdout}\n${result.stderr}` };
}

/** Runs biome as `pnpm lint` does, on `files` of the copy. */
function lint(dir, files) {
  const biome = path.join(dir, 'node_modules/@biomejs/biome/bin/biome');
  return spawnSync(process.execPath, [biome, 'check', '--error-on-warnings', ...files], {
    cwd: dir,
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
  });
}

/** Runs tsc on the catalogue with `tsconfig` (its sources, or its views), as `pnpm typecheck` does. */
function typecheck(dir, tsconfig) {
  return spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', tsconfig, '--noEmit'], {
    cwd: path.join(dir, SERVER),
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
  });
}

/** Runs vitest on `files` in the copy's catalogue (or `cwd`), with CI=true or with no CI at all. */
function vitest(dir, files, { ci, cwd = path.join(dir, SERVER), timeoutMs = RUN_TIMEOUT_MS }) {
  const env = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  if (ci) env.CI = 'true';
  else delete env.CI;
  const result = spawnSync(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--reporter=verbose', ...files],
    {
      cwd,
      env,
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
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
    const biome = lint(dir, files);
    assert.equal(biome.status, 0, `${biome.stdout}\n${biome.stderr}`);
    const tsc = typecheck(dir, 'tsconfig.json');
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
    // It says what to do about a change made on purpose, not only that the bytes differ.
    assert.match(
      output,
      /The listing of get_time is not as recorded in __snapshots__\/server-lists\.json\.snap\. If you changed it on purpose/,
    );
    assert.match(output, /vitest run test\/server-lists\.test\.ts -u/);
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

const VIEW_NAME = 'echo_card';
const VIEW_TOOL = `${SERVER}/src/tools/echo-card.ts`;
const VIEW_URI = 'ui://workshop/echo-card';
/** What `--view` writes besides the tool and its test, and what it edits. */
const VIEW_FILES = [
  VIEW_TOOL,
  `${SERVER}/src/tools/echo-card.test.ts`,
  `${SERVER}/views/echo-card.html`,
  `${SERVER}/views/echo-card/main.ts`,
];
const VIEW_EDITS = [`${SERVER}/src/tools/index.ts`, `${SERVER}/src/resources/views.ts`];
/**
 * The catalogue's tests that pin its tool and view lists (they follow the registered ones), and
 * the new tool's own test, which reads its built view.
 */
const VIEW_TESTS = [
  'test/server-lists.test.ts',
  'src/resources/views.test.ts',
  'src/resources/index.test.ts',
  'src/tools/tool-views.test.ts',
  'src/tools/echo-card.test.ts',
];

describe('pnpm new-tool --view, then the catalogue tests', { timeout: SUITE_TIMEOUT_MS }, () => {
  let dir;
  let dryRun;
  let scaffold;
  let original;
  const exists = (file) => fs.existsSync(path.join(dir, file));
  before(() => {
    dir = makeScratchCopy(ROOT);
    original = Object.fromEntries(
      VIEW_EDITS.map((file) => [file, fs.readFileSync(path.join(dir, file), 'utf8')]),
    );
    dryRun = newTool(dir, [VIEW_NAME, '--view', '--dry-run']);
    assert.equal(dryRun.status, 0, dryRun.output);
    assert.deepEqual(VIEW_FILES.filter(exists), [], 'the dry run wrote files');
    for (const file of VIEW_EDITS)
      assert.equal(
        fs.readFileSync(path.join(dir, file), 'utf8'),
        original[file],
        `the dry run edited ${file}`,
      );
    scaffold = newTool(dir, [VIEW_NAME, '--view']);
    assert.equal(scaffold.status, 0, scaffold.output);
  });
  after(() => {
    if (dir) removeScratchCopy(dir);
  });

  it('shows every file and edit in the dry run, and writes them all', () => {
    for (const file of VIEW_FILES) assert.match(dryRun.stdout, new RegExp(`would create ${file}`));
    assert.match(dryRun.stdout, /would register echoCard in services\/mcp-server\/src\/tools\/index\.ts/);
    assert.match(
      dryRun.stdout,
      new RegExp(`would register ${VIEW_URI} in services/mcp-server/src/resources/views\\.ts`),
    );
    assert.match(dryRun.stdout, new RegExp(`\\+ +\\d+ export const ECHO_CARD_VIEW_URI = '${VIEW_URI}';`));
    assert.match(dryRun.stdout, /would build the views/);
    assert.deepEqual(
      VIEW_FILES.filter((file) => !exists(file)),
      [],
    );
    assert.ok(exists(`${SERVER}/dist/views/echo-card.html`), scaffold.output);
    assert.match(scaffold.stdout, /built {6}services\/mcp-server\/dist\/views\/echo-card\.html/);
    const tool = fs.readFileSync(path.join(dir, VIEW_TOOL), 'utf8');
    assert.match(tool, /ui: \{ resourceUri: ECHO_CARD_VIEW_URI \}/);
  });

  it('passes the tests that pin the tool and view lists with CI=true, and leaves the snapshot as it was', () => {
    const snapshot = path.join(dir, SNAPSHOT);
    const recorded = fs.readFileSync(snapshot, 'utf8');
    const { status, output } = vitest(dir, VIEW_TESTS, { ci: true });
    assert.equal(status, 0, output);
    assert.match(output, new RegExp(`${VIEW_NAME} is declared in its own file`));
    assert.match(output, new RegExp(`reads ${VIEW_URI} as one self-contained HTML document`));
    assert.match(output, /names, for every tool with a view, a ui:\/\/ resource that is listed/);
    assert.match(output, /serves its view as one self-contained MCP Apps document/);
    assert.equal(fs.readFileSync(snapshot, 'utf8'), recorded);
  });

  it('leaves files that pass biome and tsc (the sources and the views), as pnpm lint and pnpm typecheck run them', () => {
    const biome = lint(dir, [...VIEW_FILES, ...VIEW_EDITS]);
    assert.equal(biome.status, 0, `${biome.stdout}\n${biome.stderr}`);
    for (const tsconfig of ['tsconfig.json', 'views/tsconfig.json']) {
      const tsc = typecheck(dir, tsconfig);
      assert.equal(tsc.status, 0, `${tsconfig}: ${tsc.stdout}\n${tsc.stderr}`);
    }
  });

  it('fails the view tests, naming the fix, when a tool names a view that is not registered', () => {
    const edit = (text) => text.replace(/^ {4}\{\n {6}uri: ECHO_CARD_VIEW_URI,[\s\S]*?\n {4}\},\n/m, '');
    const { status, output } = withEdit(dir, VIEW_EDITS[1], edit, () =>
      vitest(dir, ['src/tools/tool-views.test.ts', 'src/resources/views.test.ts'], { ci: true }),
    );
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      new RegExp(`echo_card names the view ${VIEW_URI}, which resources/list does not have`),
    );
    assert.match(
      output,
      /dist\/views\/echo-card\.html \(from views\/echo-card\.html\) is served as no ui:\/\/ resource/,
    );
  });

  it('refuses a name whose view page or folder exists, and writes nothing', () => {
    for (const name of ['weather_forecast', 'weather']) {
      const { status, output } = newTool(dir, [name, '--view']);
      assert.equal(status, 2, output);
      assert.match(output, /already exists; pick another name/);
      assert.ok(!exists(`${SERVER}/src/tools/${name.replaceAll('_', '-')}.ts`));
    }
  });
});

/** A skill as module 6 invites a participant to add one: a folder beside the shipped ones, with its SKILL.md. */
const OWN_SKILL = 'plan-a-day';
const OWN_SKILL_MANIFEST = `---
name: ${OWN_SKILL}
description: Plan a day around the weather - look up the forecast, then add a task for each outing.
---

# Plan a day

Ask for the forecast of the city first, then add one task per outing the weather allows.
`;
/**
 * The catalogue's tests that enumerate it: they import one of its lists (tools, resources, views,
 * prompts, skills) or ask a server for one. Found by this rule, so a new such test is run too.
 */
const ENUMERATES =
  /(tools\/index|resources\/index|resources\/views|prompts\/index|skills\/catalogue)\.js'|list(Tools|Resources|Prompts)\(|'(tools|resources|prompts|skills)\/list'/;
/** The enumerating tests together run for a few minutes on a loaded 2-core machine; beyond this, they hang. */
const ENUMERATING_RUN_TIMEOUT_MS = 10 * 60_000;

/** The catalogue's test files (paths relative to its package) whose text matches ENUMERATES. */
function enumeratingTests(dir) {
  const server = path.join(dir, SERVER);
  const found = [];
  const visit = (folder) => {
    for (const entry of fs.readdirSync(path.join(server, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(relative);
      else if (
        entry.name.endsWith('.test.ts') &&
        ENUMERATES.test(fs.readFileSync(path.join(server, relative), 'utf8'))
      )
        found.push(relative);
    }
  };
  for (const folder of ['src', 'test', 'views']) visit(folder);
  return found.sort();
}

describe("a participant's own tool, view and skill, then the tests that enumerate the catalogue", {
  timeout: ENUMERATING_RUN_TIMEOUT_MS + 8 * RUN_TIMEOUT_MS,
}, () => {
  let dir;
  before(() => {
    dir = makeScratchCopy(ROOT);
    for (const args of [['shout_text'], ['echo_panel', '--view']]) {
      const scaffold = newTool(dir, args);
      assert.equal(scaffold.status, 0, scaffold.output);
    }
    const skillDir = path.join(dir, SERVER, 'skills', OWN_SKILL);
    fs.mkdirSync(skillDir);
    fs.writeFileSync(path.join(skillDir, 'SKILL.md'), OWN_SKILL_MANIFEST);
    // Some of those tests start the built server, as `pnpm test` builds it first.
    const build = spawnSync('pnpm', ['run', 'build'], {
      cwd: path.join(dir, SERVER),
      encoding: 'utf8',
      timeout: 4 * RUN_TIMEOUT_MS,
    });
    assert.equal(build.status, 0, `${build.stdout}\n${build.stderr}`);
  });
  after(() => {
    if (dir) removeScratchCopy(dir);
  });

  it('passes every catalogue test that lists its tools, resources, views, prompts or skills', () => {
    const files = enumeratingTests(dir);
    // The rule finds the lists' own tests; if it finds none, it is the rule that broke.
    for (const expected of [
      'test/server-lists.test.ts',
      'src/skills/catalogue.test.ts',
      'src/resources/views.test.ts',
    ])
      assert.ok(files.includes(expected), `${expected} is not among ${files.join(', ')}`);
    const { status, output } = vitest(
      dir,
      [...files, 'src/tools/shout-text.test.ts', 'src/tools/echo-panel.test.ts'],
      {
        ci: true,
        timeoutMs: ENUMERATING_RUN_TIMEOUT_MS,
      },
    );
    assert.equal(status, 0, output);
    // They saw the participant's additions, not only the shipped catalogue.
    assert.match(output, /shout_text is declared in its own file/);
    assert.match(output, /reads ui:\/\/workshop\/echo-panel as one self-contained HTML document/);
    assert.match(output, new RegExp(`'${OWN_SKILL}/SKILL\\.md' is small enough to read whole`));
  });

  it("passes pnpm dev's loop test, whose own tools go in beside the participant's", () => {
    const devDir = path.join(dir, 'dev/catalogue-dev');
    const build = spawnSync(
      process.execPath,
      [path.join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: devDir,
        encoding: 'utf8',
        timeout: RUN_TIMEOUT_MS,
      },
    );
    assert.equal(build.status, 0, `${build.stdout}\n${build.stderr}`);
    const { status, output } = vitest(dir, ['src/dev-server.e2e.test.ts'], {
      ci: true,
      cwd: devDir,
      timeoutMs: 4 * RUN_TIMEOUT_MS,
    });
    assert.equal(status, 0, output);
    assert.match(output, /adds a saved tool to the same session/);
  });
});
