#!/usr/bin/env node
// @ts-check
/**
 * The exercises' runner (exercises/README.md).
 *
 *   node scripts/exercise.mjs 01        checks your work on exercise 01 and says, in plain words, what is still missing
 *   node scripts/exercise.mjs --verify  proves every check fails on the untouched starter and passes on the solution
 *
 * Both typecheck the participant's files with tsc's compiler (vitest strips types, so it would run
 * code that does not compile) while vitest runs the exercise's `check.test.ts`, then read vitest's
 * JSON report. Root scripts `pnpm exercise NN` and `pnpm exercises:verify` build first.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typecheckFiles } from './lib/typecheck-exercise.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const EXERCISES = join(ROOT, 'exercises');
const VITEST = join(EXERCISES, 'node_modules', 'vitest', 'vitest.mjs');
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape character is the point.
const ANSI_ESCAPE = /\u001b\[[0-9;]*m/g;
/** A failure line longer than this is cut: the point is a hint, not the whole diff. */
const MAX_HINT_CHARS = 200;
/** More type errors than this are counted, not printed: the first ones usually cause the rest. */
const MAX_TYPE_ERRORS = 5;
/** The check's line for the typecheck, as `pnpm exercise` prints it. */
const COMPILES = 'your code compiles (tsc finds no type errors)';

/** `01-random-fact`, `02-http-api`, ...: every folder whose name starts with two digits. */
function listExercises() {
  return readdirSync(EXERCISES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d\d-/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** `1`, `01`, `01-random-fact` or `random-fact` → `01-random-fact`. */
function findExercise(query) {
  const all = listExercises();
  const wanted = /^\d+$/.test(query) ? query.padStart(2, '0') : query;
  return all.find((name) => name === wanted || name.startsWith(`${wanted}-`) || name.slice(3) === wanted);
}

/** The folder a check reads for `source`, as test-support/participant.ts picks it. */
function participantDir(name, source) {
  return source === 'solution' ? join(EXERCISES, '.solutions', name) : join(EXERCISES, name, 'starter');
}

/** The participant's `.ts` files of each exercise, typechecked as one program; per exercise, tsc's error lines. */
function typecheckExercises(exercises, source) {
  const owner = new Map();
  for (const name of exercises) {
    const dir = participantDir(name, source);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((entry) => entry.endsWith('.ts') && !entry.endsWith('.d.ts')))
      owner.set(join(dir, file), name);
  }
  const errors = new Map(exercises.map((name) => [name, []]));
  const found = typecheckFiles([...owner.keys()], { tsconfig: join(EXERCISES, 'tsconfig.json'), cwd: ROOT });
  for (const { file, text } of found) {
    // An error in no file (a bad compiler option) stops every exercise.
    for (const name of file ? [owner.get(file)] : exercises) errors.get(name)?.push(text);
  }
  return errors;
}

/**
 * Runs the checks of `exercises` (folder names) against `source` (`starter` or `solution`) and
 * returns, per exercise, `{ typeErrors: [tsc's lines], loadError?, tests: [{ title, passed, hint }] }`.
 */
async function runChecks(exercises, source, { verbose = false } = {}) {
  if (!existsSync(VITEST)) {
    console.error('vitest is not installed in exercises/. Run `pnpm install` first.');
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'exercise-'));
  const report = join(dir, 'report.json');
  try {
    const filters = exercises.map((name) => `${name}/check.test.ts`);
    const reporters = verbose ? ['--reporter=default'] : [];
    const vitest = spawn(
      process.execPath,
      [VITEST, 'run', ...filters, ...reporters, '--reporter=json', `--outputFile=${report}`],
      {
        cwd: EXERCISES,
        env: { ...process.env, EXERCISE_FROM: source, FORCE_COLOR: '0' },
        stdio: verbose ? 'inherit' : 'ignore',
      },
    );
    const exited = new Promise((resolve) => {
      vitest.on('close', resolve);
      vitest.on('error', resolve);
    });
    // Synchronous, but vitest runs meanwhile in its own process: the two take about as long.
    const typeErrors = typecheckExercises(exercises, source);
    await exited;
    if (!existsSync(report)) {
      console.error('vitest wrote no report. Run it yourself to see why: cd exercises && npx vitest run');
      process.exit(2);
    }
    const json = JSON.parse(readFileSync(report, 'utf8'));
    const results = new Map(
      exercises.map((name) => [
        name,
        { typeErrors: typeErrors.get(name) ?? [], loadError: 'the check did not run', tests: [] },
      ]),
    );
    for (const file of json.testResults ?? []) {
      const name = relative(EXERCISES, file.name).split(/[\\/]/)[0];
      const tests = (file.assertionResults ?? []).map((test) => ({
        title: test.title,
        passed: test.status === 'passed',
        hint: hintFrom(test.failureMessages?.[0] ?? ''),
      }));
      const loadError = tests.length === 0 ? hintFrom(file.message || 'the check did not run') : undefined;
      results.set(name, { typeErrors: typeErrors.get(name) ?? [], loadError, tests });
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first line of a failure, without "AssertionError:" and, when the check gave a message, without vitest's diff. */
function hintFrom(message) {
  const lines = message
    .replace(ANSI_ESCAPE, '')
    .split('\n')
    .map((text) => text.trim())
    .filter((text) => text !== '');
  // "Transform failed with 1 error:" says nothing alone; the line after it says what.
  const line = lines[0]?.endsWith(':') ? `${lines[0]} ${lines[1] ?? ''}` : (lines[0] ?? '');
  const plain = line.replace(/^(AssertionError|Error|TypeError): /, '').replace(/^.*?Caused by: /, '');
  const custom = plain.indexOf(': expected ');
  const hint = custom > 0 ? plain.slice(0, custom) : plain;
  return hint.length > MAX_HINT_CHARS ? `${hint.slice(0, MAX_HINT_CHARS)}…` : hint;
}

/** The typecheck as the first check line: `✓`, or `✗` with tsc's own error lines below it. */
function printTypecheck(typeErrors) {
  console.log(`${typeErrors.length === 0 ? '✓' : '✗'} ${COMPILES}`);
  for (const text of typeErrors.slice(0, MAX_TYPE_ERRORS)) console.log(text.replace(/^/gm, '    '));
  if (typeErrors.length > MAX_TYPE_ERRORS)
    console.log(`    … and ${typeErrors.length - MAX_TYPE_ERRORS} more type errors`);
}

async function checkOne(query, verbose) {
  const name = findExercise(query);
  if (!name) {
    console.error(`No exercise "${query}". There are: ${listExercises().join(', ')}.`);
    process.exit(2);
  }
  console.log(`Exercise ${name}: read exercises/${name}/README.md`);
  console.log(`Checking your files in exercises/${name}/starter/\n`);
  const result = (await runChecks([name], 'starter', { verbose })).get(name);
  const compiles = result.typeErrors.length === 0;
  printTypecheck(result.typeErrors);
  const fixFirst = compiles
    ? '\nFix that first, then run this again.'
    : '\nFix that first (the type errors above may be why), then run this again.';
  if (result.loadError) {
    console.log(`✗ The check could not run your code: ${result.loadError}`);
    console.log(fixFirst);
    process.exit(1);
  }
  const hints = new Set(result.tests.map((test) => (test.passed ? '' : test.hint)));
  if (result.tests.length > 1 && hints.size === 1 && !hints.has('')) {
    // Every check failed the same way: your file did not load or run at all.
    console.log(
      `✗ Every check failed the same way, so your code probably did not load:\n    ${[...hints][0]}`,
    );
    console.log(fixFirst);
    process.exit(1);
  }
  for (const test of result.tests) {
    console.log(`${test.passed ? '✓' : '✗'} ${test.title}`);
    if (!test.passed && test.hint) console.log(`    ${test.hint}`);
  }
  // The typecheck counts as one check: code tsc refuses is not done, however well it runs.
  const total = result.tests.length + 1;
  const missing = result.tests.filter((test) => !test.passed).length + (compiles ? 0 : 1);
  if (missing === 0) {
    console.log(`\nDone: all ${total} checks pass. Well done!`);
    return;
  }
  if (!compiles)
    console.log(
      '\nYour code does not compile. The checks ran it with its types stripped, but `pnpm typecheck` refuses it.',
    );
  console.log(
    `${compiles ? '\n' : ''}Still missing: ${missing} of ${total}. The README has hints; run \`pnpm exercise ${name.slice(0, 2)}\` again after your next change.`,
  );
  process.exit(1);
}

/** Starter files that differ from git's HEAD: verify is meant for the untouched starters. */
function editedStarters() {
  const git = spawnSync('git', ['status', '--porcelain', '--', 'exercises/*/starter'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return git.status === 0 ? git.stdout.trim() : '';
}

async function verify(verbose) {
  const exercises = listExercises();
  const problems = [];
  for (const name of exercises) {
    /** @type {Array<[string, string]>} */
    const needed = [
      ['README.md', join(EXERCISES, name, 'README.md')],
      ['check.test.ts', join(EXERCISES, name, 'check.test.ts')],
      ['starter/', join(EXERCISES, name, 'starter')],
      ['solution', join(EXERCISES, '.solutions', name)],
    ];
    for (const [what, path] of needed) {
      if (!existsSync(path)) problems.push(`${name}: no ${what}`);
    }
  }
  const edited = editedStarters();
  if (edited)
    console.warn(
      `Warning: these starter files differ from git HEAD, so "starter" means your edits:\n${edited}\n`,
    );

  // One after the other: two vitest runs at once would make the checks' time limits flaky.
  const starter = await runChecks(exercises, 'starter', { verbose });
  const solution = await runChecks(exercises, 'solution', { verbose });
  const header = ['exercise', 'checks', 'on the starter', 'on the solution'];
  /** @type {string[][]} */
  const rows = [header];
  for (const name of exercises) {
    const onStarter = starter.get(name);
    const onSolution = solution.get(name);
    const count = onSolution?.tests.length ?? 0;
    const starterFailed = onStarter?.tests.filter((test) => !test.passed).length ?? 0;
    const solutionPassed = onSolution?.tests.filter((test) => test.passed).length ?? 0;
    // A starter that fails only because the check can't load it proves nothing about the check.
    const starterOk = !onStarter?.loadError && starterFailed > 0;
    const solutionOk = !onSolution?.loadError && count > 0 && solutionPassed === count;
    if (!starterOk) {
      problems.push(
        onStarter?.loadError
          ? `${name}: the check could not load the starter (${onStarter.loadError})`
          : `${name}: the check passes on the untouched starter; a check that can't fail is a bug`,
      );
    }
    // Both must compile: the starter is where a participant begins, the solution is what they compare with.
    for (const [what, result] of [
      ['the untouched starter', onStarter],
      ['the solution', onSolution],
    ]) {
      const [first, ...more] = result?.typeErrors ?? [];
      if (first)
        problems.push(
          `${name}: ${what} does not compile: ${first}${more.length > 0 ? ` (and ${more.length} more)` : ''}`,
        );
    }
    if (!solutionOk) {
      const failed = onSolution?.tests.filter((test) => !test.passed) ?? [];
      problems.push(
        onSolution?.loadError
          ? `${name}: the check could not load the solution (${onSolution.loadError})`
          : `${name}: the solution fails: ${failed.map((test) => `"${test.title}" (${test.hint})`).join('; ') || 'no tests ran'}`,
      );
    }
    rows.push([
      name,
      String(count),
      `${starterOk && compiles(onStarter) ? 'ok' : 'BAD'}: ${starterFailed} of ${onStarter?.tests.length ?? 0} fail, ${compiled(onStarter)}`,
      `${solutionOk && compiles(onSolution) ? 'ok' : 'BAD'}: ${solutionPassed} of ${count} pass, ${compiled(onSolution)}`,
    ]);
  }
  const widths = header.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  for (const row of rows)
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  if (problems.length > 0) {
    console.error(`\n${problems.map((problem) => `✗ ${problem}`).join('\n')}`);
    process.exit(1);
  }
  console.log(
    `\nAll ${exercises.length} checks fail on their starter and pass on their solution, and both compile.`,
  );
}

function compiles(result) {
  return (result?.typeErrors.length ?? 0) === 0;
}

/** `compiles`, or `2 type errors`, for verify's table. */
function compiled(result) {
  const count = result?.typeErrors.length ?? 0;
  return count === 0 ? 'compiles' : `${count} type error${count === 1 ? '' : 's'}`;
}

async function main() {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const rest = args.filter((arg) => arg !== '--verbose');
  if (rest.includes('--verify')) return verify(verbose);
  if (rest.length !== 1) {
    console.log('Usage: pnpm exercise NN [--verbose]    e.g. pnpm exercise 01\n');
    for (const name of listExercises()) console.log(`  ${name}`);
    process.exit(rest.length === 0 ? 0 : 2);
  }
  return checkOne(rest[0], verbose);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
