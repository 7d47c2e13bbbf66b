// Tests of scripts/new-tool.mjs together with the catalogue's tests a new tool touches, in a scratch
// copy of the repository so the working tree stays untouched; run with `node --test scripts/lib/`
// after `pnpm build` (the copy borrows the built workspace packages through its node_modules links).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { makeScratchCopy, removeScratchCopy } from './scratch-copy.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NAME = 'echo_text';
const SERVER = 'services/mcp-server';
const TOOL = `${SERVER}/src/tools/echo-text.ts`;
const CASES = `${SERVER}/src/tools/echo-text.eval.yaml`;
const SNAPSHOT = `${SERVER}/test/__snapshots__/server-lists.json.snap`;
/** The tests a new tool touches: the tool lists, and the tool's own test from the template. */
const TESTS = ['test/server-lists.test.ts', 'src/tools/echo-text.test.ts'];
/**
 * A safety net for one run (a vitest run of a few files, tsc, biome, the scaffold): each takes
 * seconds alone, but over a minute beside other builds on a loaded 2-core machine; far beyond
 * that, it hangs, and must not hang CI.
 */
const RUN_TIMEOUT_MS = 3 * 60_000;
/** The scaffold, several vitest runs, biome and tsc, each bounded above; together a few minutes. */
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

/**
 * Reads a scaffolded cases file and checks what `pnpm eval` needs of it: YAML whose `tool:` is the
 * new tool, with its one example case, and a comment asking for more; returns that case.
 */
function readExampleCase(dir, file, name) {
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  const parsed = parseYaml(text);
  assert.equal(parsed.tool, name, text);
  assert.equal(parsed.cases.length, 1, text);
  assert.match(text, /Write at least 3/);
  assert.match(text, /pnpm eval/);
  const [example] = parsed.cases;
  assert.equal(typeof example.ask, 'string', text);
  assert.ok(example.ask.length > 10, text);
  return example;
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
  /** @type {NodeJS.ProcessEnv} */
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
  let scaffold;
  const snapshotFiles = () => fs.readdirSync(path.dirname(path.join(dir, SNAPSHOT))).sort();
  before(() => {
    dir = makeScratchCopy(ROOT);
    snapshotBefore = fs.readFileSync(path.join(dir, SNAPSHOT), 'utf8');
    snapshotFilesBefore = snapshotFiles();
    scaffold = execFileSync(process.execPath, ['scripts/new-tool.mjs', NAME], { cwd: dir, encoding: 'utf8' });
  });
  after(() => {
    if (dir) removeScratchCopy(dir);
  });

  it('writes the cases file beside the tool, with one example case, and points to pnpm eval', () => {
    const example = readExampleCase(dir, CASES, NAME);
    assert.deepEqual(example.args, { text: { mentions: 'hello world' } });
    assert.match(scaffold, new RegExp(`created {4}${CASES}`));
    assert.match(
      scaffold.slice(scaffold.indexOf('Next steps:')),
      /cases in .*echo-text\.eval\.yaml, then: pnpm eval/,
    );
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
const VIEW_MAIN = `${SERVER}/views/workshop/echo-card/main.ts`;
const VIEW_URI = 'ui://workshop/echo-card';
const VIEW_CASES = `${SERVER}/src/tools/echo-card.eval.yaml`;
/** What `--view` writes: the tool, its test, its cases and its view; and the one file it edits, the tools list. */
const VIEW_FILES = [VIEW_TOOL, `${SERVER}/src/tools/echo-card.test.ts`, VIEW_CASES, VIEW_MAIN];
const VIEW_EDITS = [`${SERVER}/src/tools/index.ts`];

/**
 * Every file of the catalogue a participant edits (its sources, views, skills and tests, not what a
 * build writes), with its text: compared before and after a scaffold, it shows what was written.
 */
function catalogueFiles(dir) {
  const server = path.join(dir, SERVER);
  /** @type {Map<string, string>} */
  const files = new Map();
  const visit = (folder) => {
    for (const entry of fs.readdirSync(path.join(server, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(relative);
      else files.set(`${SERVER}/${relative}`, fs.readFileSync(path.join(server, relative), 'utf8'));
    }
  };
  for (const folder of ['src', 'views', 'skills', 'test']) {
    if (fs.existsSync(path.join(server, folder))) visit(folder);
  }
  return files;
}
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
  /** @type {Map<string, string>} */
  let original;
  /** @type {Map<string, string>} */
  let scaffolded;
  const exists = (file) => fs.existsSync(path.join(dir, file));
  before(() => {
    dir = makeScratchCopy(ROOT);
    original = catalogueFiles(dir);
    dryRun = newTool(dir, [VIEW_NAME, '--view', '--dry-run']);
    assert.equal(dryRun.status, 0, dryRun.output);
    assert.deepEqual(catalogueFiles(dir), original, 'the dry run wrote or edited files');
    scaffold = newTool(dir, [VIEW_NAME, '--view']);
    assert.equal(scaffold.status, 0, scaffold.output);
    scaffolded = catalogueFiles(dir);
  });
  after(() => {
    if (dir) removeScratchCopy(dir);
  });

  it('writes the tool, its test, its cases and its view, edits only the tools list, and said so in the dry run', () => {
    for (const file of VIEW_FILES) assert.match(dryRun.stdout, new RegExp(`would create ${file}`));
    assert.match(dryRun.stdout, /would register echoCard in services\/mcp-server\/src\/tools\/index\.ts/);
    assert.match(dryRun.stdout, /would build the views/);
    const written = [...scaffolded.keys()].filter((file) => !original.has(file)).sort();
    const edited = [...original.keys()].filter((file) => scaffolded.get(file) !== original.get(file));
    assert.deepEqual(written, [...VIEW_FILES].sort());
    assert.deepEqual(edited, VIEW_EDITS);
    assert.ok(exists(`${SERVER}/dist/views/workshop.echo-card.html`), scaffold.output);
    assert.match(scaffold.stdout, /built {6}services\/mcp-server\/dist\/views\/workshop\.echo-card\.html/);
  });

  it('writes cases whose tool is the new one, and points to pnpm eval', () => {
    readExampleCase(dir, VIEW_CASES, VIEW_NAME);
    assert.match(
      scaffold.stdout.slice(scaffold.stdout.indexOf('Next steps:')),
      /echo-card\.eval\.yaml, then: pnpm eval/,
    );
  });

  it("names its view's folder in the tool, and types the view by the tool's output schema", () => {
    const tool = fs.readFileSync(path.join(dir, VIEW_TOOL), 'utf8');
    assert.match(tool, new RegExp(`ui: \\{ resourceUri: '${VIEW_URI}' \\}`));
    assert.match(tool, /^export const output = z\.object\(/m);
    const view = fs.readFileSync(path.join(dir, VIEW_MAIN), 'utf8');
    assert.match(view, /^import type \{ output \} from '\.\.\/\.\.\/\.\.\/src\/tools\/echo-card\.js';$/m);
    assert.match(view, /^type Output = z\.output<typeof output>;$/m);
    assert.doesNotMatch(view, /interface Output|function parse/);
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

  it("fails the views' type check, naming the view, when the tool's output changes and the view does not", () => {
    const edit = (text) => text.replace(/^( {2})length: z\.number\(\)/m, '$1count: z.number()');
    const tsc = withEdit(dir, VIEW_TOOL, edit, () => typecheck(dir, 'views/tsconfig.json'));
    assert.notEqual(tsc.status, 0, tsc.stdout);
    assert.match(
      tsc.stdout,
      /workshop\/echo-card\/main\.ts\(\d+,\d+\): error TS2339: Property 'length' does not exist/,
    );
  });

  it('fails the view tests, naming the folder to make, when the tool names a view no folder holds', () => {
    const edit = (text) => text.replace(`resourceUri: '${VIEW_URI}'`, `resourceUri: '${VIEW_URI}s'`);
    const { status, output } = withEdit(dir, VIEW_TOOL, edit, () =>
      vitest(dir, ['src/tools/tool-views.test.ts', 'src/resources/views.test.ts'], { ci: true }),
    );
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      new RegExp(`echo_card names the view ${VIEW_URI}s, which resources/list does not have`),
    );
    assert.match(
      output,
      /a tool names ui:\/\/workshop\/echo-cards, but no folder holds it: make views\/workshop\/echo-cards\/main\.ts/,
    );
  });

  it('refuses a name whose view folder exists, and writes nothing', () => {
    fs.mkdirSync(path.join(dir, SERVER, 'views/workshop/taken'), { recursive: true });
    const { status, output } = newTool(dir, ['taken', '--view']);
    assert.equal(status, 2, output);
    assert.match(output, /views\/workshop\/taken already exists; pick another name/);
    assert.ok(!exists(`${SERVER}/src/tools/taken.ts`));
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
