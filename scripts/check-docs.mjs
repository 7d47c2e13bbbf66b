#!/usr/bin/env node
// @ts-check
/**
 * `pnpm check:docs`: keeps the markdown honest. For every `*.md` that git tracks or would track
 * (`git ls-files -co --exclude-standard`), it checks that
 *   1. links: every relative link `[x](path#anchor)` points at a file that exists, and an anchor
 *      into a .md file matches one of its headings (GitHub's slugs) or an `id`/`name` attribute;
 *   2. scripts: every `pnpm <script>` in code (spans and fenced blocks) is a root package.json
 *      script, and `pnpm --filter <package> <script>` is a script of that package;
 *   3. tools: every backticked snake_case name that looks like a tool (`get_weather`,
 *      `get_weather { location }`, `/tools/get_weather`, a `tools/call` "name") is a tool the
 *      built server registers, a prompt it registers, or listed in scripts/check-docs.allow;
 *   4. runnable blocks: fenced blocks whose info string is `sh runnable` or `bash runnable` run
 *      from the repo root with CI=true. A block runs as one `bash -euo pipefail` script, so `cd`
 *      and variables carry from line to line; the first failing line stops it and is reported as
 *      file:line. Mark only commands that are offline, quick and leave nothing running. Options
 *      after `runnable`, in any order:
 *        id=NAME        names the block, for `output-of=NAME` and `--only NAME` (unique in the docs)
 *        timeout=SECS   default 120
 *        exit=N         the exit code it must end with (default 0); the failing command goes last
 *        scratch[=NAME] runs in a throwaway copy of the repo (scripts/lib/scratch-copy.mjs), for
 *                       commands that write files; blocks with the same NAME share one copy, in
 *                       document order (e.g. `pnpm new-tool x`, then a later block tests it)
 *        stack          runs with the stack `pnpm start` runs up, on its ports, from the built
 *                       services and an empty DATA_DIR (scripts/lib/doc-stack.mjs), for commands
 *                       written "with `pnpm start` running"; it fails when those ports are taken
 *        cwd=DIR        runs in DIR (relative to the root): the block is written to run where the
 *                       block before it left the reader's shell (8. below); any shell block may say so
 *   5. quoted outputs: a block ```text output-of=NAME (anywhere in the docs, usually under
 *      "Expected output") is what block NAME prints, stdout and stderr as a terminal shows them
 *      (```text output-of=NAME stdout: stdout only, e.g. for JSON that is meant for a pipe).
 *      After NAME runs, its output is compared with the quote by scripts/lib/expected-output.mjs:
 *      blank lines, pnpm's and turbo's banners, the build's `build:` lines and volatile values
 *      (times, durations, dates, ids, ports, pids, temp paths, the offline weather's numbers; the
 *      list is VOLATILE_RULES there) do not count; a quoted line that is only `…` (or `...`) stands for any number of lines,
 *      and a `…` inside a line for any text. A drift fails with a diff, e.g.
 *
 *        ```sh runnable id=ask-arithmetic
 *        pnpm ask "What is 6 * 7?"
 *        ```
 *        …
 *        ```text output-of=ask-arithmetic
 *        …
 *        question: What is 6 * 7?
 *        …
 *        answer: Here is what calculate returned for expression "6 * 7": result 42, …
 *        ```
 *
 *   6. unchecked outputs: every block that shows a program's output (```text, ```console, no
 *      language, or any block after "It prints:", "Expected output"…) says how it is kept true:
 *      `output-of=NAME` (5. above), or on a line above its fence `<!-- checked-by: TEST -->` (a test
 *      that exists, names the doc and asserts the same text) or `<!-- illustrative: WHY -->` (why
 *      nothing can rerun it: Docker, a running stack, a real model…). scripts/lib/doc-claims.mjs;
 *   7. goal claims: no doc says a goal "is met" or has a "met" column: a bench marks goals for one
 *      run, so the docs quote figures and the date of the run (scripts/lib/doc-claims.mjs).
 *   8. working directory: a reader pastes a doc's blocks in order into one shell, but 4. runs each
 *      block from the root in a shell of its own, so a block that leaves the shell elsewhere passes
 *      there and breaks the reader's next one (module 2's `cd services/mcp-server` once made module
 *      3's `pnpm new-tool` fail with `Command "new-tool" not found`). In every doc with runnable
 *      blocks, the shell blocks (```sh, bash, shell, zsh; runnable or not) are followed in order
 *      through their top-level `cd`, `pushd` and `popd`, and each must start where it was written to
 *      run: the root, or its `cwd=DIR`. Each section (`#`/`##` heading: a workshop module) and the
 *      end of the file must find the shell at the root, and a top-level `cd` to a folder the text does
 *      not give (`cd "$X"`) fails. Put a `cd` in a subshell, `(cd dir && …)`, or use `pnpm --filter`.
 *      With the blocks run, the folder each runnable block really ends in ($PWD when bash exits) must
 *      be the one its text says (scripts/lib/doc-cwd.mjs).
 *   9. figures: numbers the docs give about the repository, where no quoted output holds them, are
 *      held to it: "modules 0–14" (and WORKSHOP.md's own "Fifteen modules") to its `## N.` modules, a
 *      quoted agent log's `"tools":N` (server `workshop`) and a table headed `tool` (the README's) to
 *      the tools the built server registers (scripts/lib/doc-figures.mjs). A figure a command prints
 *      is quoted with `output-of=` instead (5. above), e.g. module 2's count of tests.
 *
 *   node scripts/check-docs.mjs               all nine checks (builds the server first, via turbo's cache)
 *   node scripts/check-docs.mjs --skip-run    checks 1-3 and 6-9 (8. without the real folders), and
 *                                             that ids and output-of markers pair up
 *   node scripts/check-docs.mjs --only NAME   runs only runnable block NAME (or all of a file, or
 *                                             file:line), and the blocks before it in its scratch
 *                                             copy; repeatable
 *   node scripts/check-docs.mjs --update      rewrites each drifted quote from a real run, keeping
 *                                             its `…` cuts where they still match
 *
 * The `pnpm ask`/`pnpm demo` blocks start their own server and demo model only when nothing answers
 * on ports 3000 and 3002: run this with no `pnpm start` around, or their quotes will not match.
 *
 * Exit code 1 with `file:line: problem` for each problem; 0 when the docs are clean.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { goalClaims, markerProblem, outputBlockMarker } from './lib/doc-claims.mjs';
import { ROOT_DIR, showDir, workingDirProblems } from './lib/doc-cwd.mjs';
import {
  moduleCountProblems,
  toolCountProblems,
  toolTableProblems,
  workshopModules,
} from './lib/doc-figures.mjs';
import { blockOption, blockText, isRunnable, parseMarkdownText } from './lib/doc-markdown.mjs';
import { startStack } from './lib/doc-stack.mjs';
import { compareOutput } from './lib/expected-output.mjs';
import { makeScratchCopy, removeScratchCopy } from './lib/scratch-copy.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_DIST = path.join(ROOT, 'services/mcp-server/dist');
const ALLOW_FILE = path.join(ROOT, 'scripts/check-docs.allow');
/** A runnable block is a quick example, not a test suite; two minutes covers a cold build. */
const DEFAULT_BLOCK_TIMEOUT_S = 120;
/** Enough of a failing block's output (or of a drifted quote's diff) to see why, without flooding the CI log. */
const MAX_OUTPUT_LINES = 40;
const MAX_DIFF_LINES = 80;

/** pnpm's own commands: `pnpm <one of these>` is not a script of ours. `test`/`start` run scripts, so they are not here. */
const PNPM_BUILTINS = new Set(
  `add approve-builds audit bin cache cat-file cat-index config create dedupe deploy dlx docs doctor env exec
   fetch find-hash help i import info init install install-test it licenses link list ln login logout ls
   outdated pack patch patch-commit patch-remove prune publish rb rebuild recursive remove rm root run
   run-script search self-update server setup store un uninstall unlink up update upgrade view why x`.split(
    /\s+/,
  ),
);
/** pnpm options that take a value as the next word. */
const PNPM_VALUE_OPTIONS = new Set(['--filter', '-F', '-C', '--dir', '--reporter', '--loglevel']);
/** Options after which the script belongs to another package (or several), not the root. */
const PNPM_OTHER_PACKAGE = new Set(['--filter', '-F', '-C', '--dir', '-r', '--recursive']);
/** Code blocks in these languages are read as shell for the `pnpm <script>` check. */
const SHELL_LANGS = new Set([
  '',
  'sh',
  'bash',
  'shell',
  'console',
  'zsh',
  'powershell',
  'ps1',
  'cmd',
  'text',
]);

/** Every problem found, as { kind, file, line, message }. */
const problems = [];

async function main() {
  const { values } = parseArgs({
    options: {
      'skip-run': { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      update: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log('usage: node scripts/check-docs.mjs [--skip-run] [--only NAME|FILE|FILE:LINE]... [--update]');
    return;
  }
  const files = markdownFiles();
  const docs = new Map(files.map((file) => [file, parseMarkdown(file)]));

  const links = checkLinks(docs);
  const scripts = checkScripts(docs);
  const tools = await checkToolNames(docs);
  const markers = checkOutputMarkers(docs);
  const quoted = checkQuotedOutputs(docs);
  const claims = checkGoalClaims(docs);
  const dirs = checkWorkingDirs(docs);
  const figures = checkFigures(docs, tools.tools);
  const runnable = values['skip-run']
    ? undefined
    : await runBlocks(docs, markers, { only: values.only, update: values.update, ends: dirs.ends });

  console.log(`check-docs: ${files.length} markdown files`);
  console.log(`  links     ${links.checked} relative links checked, ${count('links')} broken`);
  console.log(`  scripts   ${scripts.checked} pnpm commands checked, ${count('scripts')} unknown`);
  console.log(
    `  tools     ${tools.checked} tool-like names checked against ${tools.registered} tools, ${tools.prompts} prompts ` +
      `and ${tools.exercise} exercise names, ${count('tools')} unknown`,
  );
  console.log(
    runnable
      ? `  runnable  ${runnable.ran} runnable blocks run, ${count('runnable')} failed`
      : '  runnable  skipped (--skip-run)',
  );
  console.log(
    `  markers   ${markers.quotes.size} output-of quotes, ${markers.byId.size} block ids, ${count('markers')} not paired up`,
  );
  console.log(
    runnable
      ? `  outputs   ${runnable.compared} quoted outputs compared, ${count('outputs')} drifted` +
          (values.update ? `, ${runnable.updated} rewritten (--update)` : '')
      : '  outputs   not compared (--skip-run)',
  );
  console.log(
    `  quoted    ${quoted.checked} output blocks: ${quoted.compared} compared, ${quoted.tested} held by a test, ` +
      `${quoted.illustrative} illustrative, ${count('quoted')} unmarked`,
  );
  console.log(`  claims    ${claims.checked} prose lines read, ${count('claims')} goals called met`);
  console.log(
    `  figures   ${figures.modules} workshop modules and ${tools.registered} tools held to what the docs say of them, ` +
      `${count('figures')} wrong`,
  );
  console.log(
    `  cwd       ${dirs.walked} shell blocks of ${dirs.files} files with runnable blocks followed in one shell, ` +
      `${count('cwd')} leave it where the next does not expect it` +
      (runnable ? '' : ' (the real folders not compared: --skip-run)'),
  );
  if (problems.length > 0) {
    console.error(`\n${problems.length} problem(s):`);
    for (const p of problems) console.error(`${p.file}:${p.line}: ${p.message}`);
    process.exitCode = 1;
  }
}

function count(kind) {
  return problems.filter((p) => p.kind === kind).length;
}

function markdownFiles() {
  const out = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z', '--', '*.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  // Deleted-but-tracked files are listed too; they are not docs any more.
  return [...new Set(out.split('\0').filter(Boolean))]
    .filter((f) => fs.existsSync(path.join(ROOT, f)))
    .sort();
}

/** A markdown file of the repo, split into prose lines and fenced blocks (scripts/lib/doc-markdown.mjs). */
function parseMarkdown(file) {
  return parseMarkdownText(fs.readFileSync(path.join(ROOT, file), 'utf8'));
}

/** Inline code spans of a prose line (single or multiple backticks). */
function codeSpans(text) {
  const spans = [];
  const re = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
  for (const match of text.matchAll(re)) spans.push(match[2].trim());
  return spans;
}

// ---------------------------------------------------------------------------------------------
// 1. links

function checkLinks(docs) {
  let checked = 0;
  const anchorCache = new Map();
  for (const [file, { prose }] of docs) {
    for (const { line, text } of prose) {
      const plain = text.replace(/(`+)[\s\S]*?\1/g, (m) => ' '.repeat(m.length));
      const targets = [
        ...[...plain.matchAll(/!?\[[^\]]*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+["'(][^)]*)?\)/g)].map((m) => m[1]),
        ...[...plain.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/g)].map((m) => m[1]),
        ...[...plain.matchAll(/<(?:a|img)\s[^>]*(?:href|src)="([^"]+)"/g)].map((m) => m[1]),
      ];
      for (const raw of targets) {
        const target = raw.replace(/^<|>$/g, '');
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // http:, mailto:, …
        checked++;
        const [pathPart, anchor] = splitOnce(target, '#');
        let decoded;
        try {
          decoded = decodeURIComponent(pathPart.split('?')[0]);
        } catch {
          problem('links', file, line, `link "${target}" is not valid URL encoding`);
          continue;
        }
        const resolved = decoded
          ? decoded.startsWith('/')
            ? path.join(ROOT, decoded)
            : path.join(ROOT, path.dirname(file), decoded)
          : path.join(ROOT, file);
        const shown = path.relative(ROOT, resolved) || '.';
        if (!resolved.startsWith(ROOT) || !fs.existsSync(resolved)) {
          problem('links', file, line, `link "${target}": ${shown} does not exist`);
          continue;
        }
        if (anchor === undefined || anchor === '' || !resolved.endsWith('.md')) continue;
        if (!anchorCache.has(resolved)) anchorCache.set(resolved, anchorsOf(resolved));
        const anchors = anchorCache.get(resolved);
        if (!anchors.has(decodeURIComponent(anchor).toLowerCase())) {
          problem('links', file, line, `link "${target}": no heading #${anchor} in ${shown}`);
        }
      }
    }
  }
  return { checked };
}

function problem(kind, file, line, message) {
  problems.push({ kind, file, line, message });
}

function splitOnce(text, separator) {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** The anchors GitHub gives a markdown file: heading slugs (with -1, -2 for repeats) and explicit ids. */
function anchorsOf(absolute) {
  const { prose } = parseMarkdown(path.relative(ROOT, absolute));
  const anchors = new Set();
  const seen = new Map();
  for (const { text } of prose) {
    for (const m of text.matchAll(/<[a-z]+\s[^>]*(?:id|name)="([^"]+)"/gi)) anchors.add(m[1].toLowerCase());
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    if (!heading) continue;
    const base = slug(heading[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** GitHub's slug: the heading's rendered text, lower-cased, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images keep their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/(`+)([\s\S]*?)\1/g, '$2') // code spans keep their content
    .replace(/(\*\*|__|\*|_|~~)(?=\S)([\s\S]*?\S)\1/g, '$2'); // emphasis markers
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

// ---------------------------------------------------------------------------------------------
// 2. pnpm scripts

function checkScripts(docs) {
  const rootScripts = new Set(Object.keys(readJson('package.json').scripts ?? {}));
  const packages = workspacePackages();
  let checked = 0;
  const check = (file, line, text) => {
    // A command starts at the line start or after a shell separator, a backtick or an env assignment.
    for (const match of text.matchAll(/(?:^|[\s;&|(`$])pnpm((?:\s+[^\s;&|)`#]+)+)/g)) {
      const words = match[1].trim().split(/\s+/);
      const options = [];
      let i = 0;
      while (i < words.length && words[i].startsWith('-')) {
        const option = words[i].split('=')[0];
        options.push(option);
        i += PNPM_VALUE_OPTIONS.has(option) && !words[i].includes('=') ? 2 : 1;
      }
      let name = words[i];
      if (name === 'run' || name === 'run-script') name = words[i + 1];
      else if (name && PNPM_BUILTINS.has(name)) continue;
      if (!name || !/^[a-z][\w:.-]*$/i.test(name)) continue; // `pnpm <script>` placeholders, `pnpm -v`
      if (options.some((o) => PNPM_OTHER_PACKAGE.has(o))) {
        const filter = filterValue(words);
        const pkg = filter && packages.get(filter);
        if (!pkg) continue; // a glob, a path or -r: cannot say which package, so do not guess
        checked++;
        if (!pkg.scripts.has(name))
          problem('scripts', file, line, `"pnpm ${match[1].trim()}": ${filter} has no script "${name}"`);
        continue;
      }
      checked++;
      if (!rootScripts.has(name)) {
        problem(
          'scripts',
          file,
          line,
          `"pnpm ${match[1].trim()}": no script "${name}" in the root package.json`,
        );
      }
    }
  };
  for (const [file, { prose, blocks }] of docs) {
    for (const { line, text } of prose) for (const span of codeSpans(text)) check(file, line, span);
    for (const block of blocks) {
      if (!SHELL_LANGS.has(block.lang)) continue;
      for (const { line, text } of block.lines) check(file, line, text.replace(/^\s*[$>]\s+/, ''));
    }
  }
  return { checked };
}

function filterValue(words) {
  for (let i = 0; i < words.length; i++) {
    const [option, inline] = splitOnce(words[i], '=');
    if (option === '--filter' || option === '-F') return inline ?? words[i + 1];
  }
  return undefined;
}

/** Workspace packages by name, with their script names. */
function workspacePackages() {
  const packages = new Map();
  for (const dir of ['packages', 'services', 'exercises']) {
    const base = path.join(ROOT, dir);
    if (!fs.existsSync(base)) continue;
    for (const entry of fs.readdirSync(base)) {
      const manifest = path.join(base, entry, 'package.json');
      if (!fs.existsSync(manifest)) continue;
      const json = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      if (json.name) packages.set(json.name, { scripts: new Set(Object.keys(json.scripts ?? {})) });
    }
  }
  return packages;
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
}

// ---------------------------------------------------------------------------------------------
// 3. tool names

async function checkToolNames(docs) {
  const { tools, prompts } = await serverNames();
  const exercise = exerciseNames();
  const allow = readAllowList();
  const known = (name) =>
    tools.has(name) ||
    prompts.has(name) ||
    exercise.has(name) ||
    allow.exact.has(name) ||
    allow.prefixes.some((p) => name.startsWith(p));
  let checked = 0;
  const check = (file, line, name, how) => {
    checked++;
    if (!known(name)) {
      problem(
        'tools',
        file,
        line,
        `${how} "${name}" is not a registered tool (or prompt); if it is not meant to be one, add it to scripts/check-docs.allow`,
      );
    }
  };
  const snake = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?:$|[\s{(])/;
  const inCode = (file, line, text) => {
    // The server's shortcut route, e.g. http://127.0.0.1:3000/tools/get_weather or $URL/tools/x; not src/tools/x.ts.
    for (const m of text.matchAll(
      /(?:https?:\/\/[^/\s'"]+|\$\{?\w+\}?)\/tools\/([A-Za-z0-9_-]+)(?![\w.-])/g,
    )) {
      check(file, line, m[1], 'route /tools/');
    }
    for (const m of text.matchAll(/tools\/call["'][\s\S]*?["']name["']\s*:\s*["']([^"']+)["']/g)) {
      check(file, line, m[1], 'tools/call name');
    }
  };
  for (const [file, { prose, blocks }] of docs) {
    for (const { line, text } of prose) {
      for (const span of codeSpans(text)) {
        const m = snake.exec(span);
        if (m) check(file, line, m[1], 'tool-like name');
        inCode(file, line, span);
      }
    }
    for (const block of blocks) for (const { line, text } of block.lines) inCode(file, line, text);
  }
  return { checked, registered: tools.size, prompts: prompts.size, exercise: exercise.size, tools };
}

/**
 * Tools and prompts the exercises define (`name: 'x'` or `registerTool('x'`): the server does not
 * register them, but the exercise docs are right to name them.
 */
function exerciseNames() {
  const names = new Set();
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(full);
      } else if (entry.name.endsWith('.ts')) {
        const source = fs.readFileSync(full, 'utf8');
        for (const m of source.matchAll(
          /(?:\bname:\s*|register(?:Tool|Prompt)\(\s*)['"]([a-z][a-z0-9_]*)['"]/g,
        )) {
          names.add(m[1]);
        }
      }
    }
  };
  walk(path.join(ROOT, 'exercises'));
  return names;
}

/** Tool and prompt names from the built server (turbo rebuilds only what changed). */
async function serverNames() {
  execFileSync(
    'pnpm',
    // The agent and the demo model too: the `stack` blocks start all three from their dist folders.
    [
      'exec',
      'turbo',
      'run',
      'build',
      '--filter=@mcp-workshop/mcp-server',
      '--filter=@mcp-workshop/agent',
      '--filter=@mcp-workshop/demo-model',
      '--output-logs=errors-only',
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    },
  );
  // The catalogue is one value (its default export): its tools and prompts are the built server's.
  const { default: catalogue } = await import(pathToFileURL(path.join(SERVER_DIST, 'catalogue.js')).href);
  return {
    tools: new Set(catalogue.tools.map((/** @type {{ name: string }} */ tool) => tool.name)),
    prompts: new Set((catalogue.prompts ?? []).map((/** @type {{ name: string }} */ prompt) => prompt.name)),
  };
}

/** scripts/check-docs.allow: one identifier per line, `#` comments, `prefix_*` for a family. */
function readAllowList() {
  const exact = new Set();
  const prefixes = [];
  if (!fs.existsSync(ALLOW_FILE)) return { exact, prefixes };
  for (const raw of fs.readFileSync(ALLOW_FILE, 'utf8').split('\n')) {
    const entry = raw.replace(/#.*/, '').trim();
    if (!entry) continue;
    if (entry.endsWith('*')) prefixes.push(entry.slice(0, -1));
    else exact.add(entry);
  }
  return { exact, prefixes };
}

// ---------------------------------------------------------------------------------------------
// 4. runnable blocks, 5. quoted outputs

/**
 * Pairs `id=NAME` runnable blocks with their `output-of=NAME` quotes, and reports what does not
 * pair up: an id on a block that does not run, a repeated id or quote, a quote of no block.
 * Returns { byId: id → { file, block }, quotes: id → { file, block } }.
 */
function checkOutputMarkers(docs) {
  const byId = new Map();
  const quotes = new Map();
  for (const [file, { blocks }] of docs) {
    for (const block of blocks) {
      const id = blockOption(block, 'id');
      if (id !== undefined) {
        if (!isRunnable(block)) {
          problem('markers', file, block.line, `id=${id} is only for \`sh runnable\` blocks`);
        } else if (id === true || !/^[\w.:-]+$/.test(id)) {
          problem('markers', file, block.line, 'id= needs a name of letters, digits, "-", "_", "." or ":"');
        } else if (byId.has(id)) {
          const first = byId.get(id);
          problem(
            'markers',
            file,
            block.line,
            `id=${id} is already used at ${first.file}:${first.block.line}`,
          );
        } else {
          byId.set(id, { file, block });
        }
      }
      const of = blockOption(block, 'output-of');
      if (of === undefined) continue;
      if (quotes.has(of)) {
        const first = quotes.get(of);
        problem(
          'markers',
          file,
          block.line,
          `output-of=${of} is already quoted at ${first.file}:${first.block.line}`,
        );
      } else {
        quotes.set(of, { file, block });
      }
    }
  }
  for (const [id, { file, block }] of quotes) {
    if (!byId.has(id)) {
      problem('markers', file, block.line, `output-of=${id}: no \`sh runnable id=${id}\` block in the docs`);
    }
  }
  return { byId, quotes };
}

/**
 * 6. Every block that quotes a program's output carries `output-of=NAME`, `<!-- checked-by: PATH -->`
 * or `<!-- illustrative: REASON -->` (scripts/lib/doc-claims.mjs says which blocks are output).
 */
function checkQuotedOutputs(docs) {
  const tally = { checked: 0, compared: 0, tested: 0, illustrative: 0 };
  // A test named by checked-by must be a file of this repository.
  const inRepo = (file) => path.resolve(ROOT, file).startsWith(`${ROOT}${path.sep}`);
  const io = {
    exists: (file) =>
      inRepo(file) && fs.statSync(path.join(ROOT, file), { throwIfNoEntry: false })?.isFile() === true,
    read: (file) => fs.readFileSync(path.join(ROOT, file), 'utf8'),
  };
  for (const [file, { blocks, lines }] of docs) {
    for (const block of blocks) {
      if (isRunnable(block)) continue;
      const above = lines.slice(0, block.line - 1).map((text) => ({ text }));
      const result = outputBlockMarker(block, above);
      if (!result.output) continue;
      tally.checked++;
      if (result.marker === 'output-of') tally.compared++;
      else if (result.marker === 'checked-by') tally.tested++;
      else if (result.marker === 'illustrative') tally.illustrative++;
      const why = markerProblem(result, file, io);
      if (why) problem('quoted', file, block.line, why);
    }
  }
  return tally;
}

/** 7. No doc says a goal is met: figures and the date of their run instead (scripts/lib/doc-claims.mjs). */
function checkGoalClaims(docs) {
  let checked = 0;
  for (const [file, { prose }] of docs) {
    checked += prose.length;
    for (const { line, message } of goalClaims(prose)) problem('claims', file, line, message);
  }
  return { checked };
}

/**
 * 9. Figures the docs quote about the repository (scripts/lib/doc-figures.mjs): the workshop's
 * modules, the agent's count of the server's tools in a quoted log, the README's table of tools.
 */
function checkFigures(docs, toolNames) {
  const modules = workshopModules(docs.get('doc/WORKSHOP.md')?.prose ?? []);
  for (const [file, { prose, blocks }] of docs) {
    const found = [
      ...moduleCountProblems(prose, modules, { counts: file === 'doc/WORKSHOP.md' }),
      ...toolCountProblems(blocks, toolNames.size),
      ...toolTableProblems(prose, toolNames),
    ];
    for (const { line, message } of found) problem('figures', file, line, message);
  }
  return { modules: modules.length };
}

/**
 * 8. A doc's shell blocks, pasted in order into one shell at the root, each run where it was
 * written to run (scripts/lib/doc-cwd.mjs). Returns the folder each block is read to end in, for
 * runBlocks to compare with the real one.
 */
function checkWorkingDirs(docs) {
  const ends = new Map();
  let walked = 0;
  let files = 0;
  for (const [file, doc] of docs) {
    const result = workingDirProblems(doc, { text: blockText, option: blockOption, runnable: isRunnable });
    if (result.walked === 0) continue;
    files++;
    walked += result.walked;
    for (const { line, message } of result.problems) problem('cwd', file, line, message);
    for (const [block, end] of result.ends) ends.set(block, end);
  }
  return { ends, walked, files };
}

/**
 * @param {Map<string, ReturnType<typeof parseMarkdown>>} docs
 * @param {ReturnType<typeof checkOutputMarkers>} markers
 * @param {{ only?: string[], update?: boolean, ends?: Map<unknown, string> }} options
 */
async function runBlocks(docs, markers, { only = [], update = false, ends = new Map() }) {
  const all = [];
  const wanted = new Set();
  const unmatched = new Set(only);
  for (const [file, { blocks }] of docs) {
    for (const block of blocks) {
      if (!isRunnable(block)) continue;
      const id = blockOption(block, 'id');
      const keys = [file, `${file}:${block.line}`, ...(typeof id === 'string' ? [id] : [])];
      if (only.length === 0 || keys.some((key) => only.includes(key))) wanted.add(all.length);
      for (const key of keys) unmatched.delete(key);
      all.push({ file, block, id: typeof id === 'string' ? id : undefined });
    }
  }
  for (const key of unmatched)
    problem('runnable', 'check-docs', 0, `--only ${key}: no runnable block has that id, file or file:line`);

  // A scratch copy lives from the first block that names it to the last. A block picked with
  // --only brings the blocks before it in the same copy along: it needs what they did.
  const scratchName = ({ file, block }) => {
    const name = blockOption(block, 'scratch');
    if (name === undefined) return undefined;
    return name === true ? `${file}:${block.line}` : name;
  };
  const lastWanted = new Map([...wanted].map((index) => [scratchName(all[index]), index]));
  const selected = all.filter((entry, index) => {
    const name = scratchName(entry);
    return wanted.has(index) || (name !== undefined && index < (lastWanted.get(name) ?? -1));
  });
  const lastUse = new Map(selected.map((entry, index) => [scratchName(entry), index]));
  const scratch = new Map();
  const updates = [];
  let compared = 0;
  // The `pnpm start` stack lives across a run of consecutive `stack` blocks, and is stopped before
  // any other block: `pnpm ask` and `pnpm demo` must find nothing on its ports.
  let stack;
  const needsStack = (entry) => blockOption(entry.block, 'stack') === true;
  try {
    for (const [index, entry] of selected.entries()) {
      const { file, block, id } = entry;
      if (stack && !needsStack(entry)) {
        stack.stop();
        stack = undefined;
      }
      if (needsStack(entry) && !stack) {
        try {
          stack = await startStack(ROOT);
        } catch (error) {
          problem('runnable', file, block.line, `stack: ${error instanceof Error ? error.message : error}`);
          continue;
        }
      }
      const name = scratchName(entry);
      if (name !== undefined && !scratch.has(name)) scratch.set(name, makeScratchCopy(ROOT));
      const cwd = name === undefined ? ROOT : scratch.get(name);
      // `cwd=DIR`: written to run where the block before left the shell (scripts/lib/doc-cwd.mjs).
      const startDir = blockOption(block, 'cwd');
      const blockCwd = typeof startDir === 'string' ? path.join(cwd, startDir) : cwd;
      const timeoutS = Number(blockOption(block, 'timeout') ?? DEFAULT_BLOCK_TIMEOUT_S);
      const expectedExit = Number(blockOption(block, 'exit') ?? 0);
      if (!(timeoutS > 0) || !Number.isInteger(expectedExit)) {
        problem('runnable', file, block.line, 'timeout= needs seconds and exit= a whole number');
        continue;
      }
      const where = name === undefined ? '' : `, in scratch copy "${name}"`;
      console.log(
        `running ${file}:${block.line}${id ? ` (${id})` : ''} (${block.lines.length} lines, timeout ${timeoutS} s${where})`,
      );
      const result = await runScript(blockText(block), timeoutS * 1000, blockCwd);
      if (name !== undefined && lastUse.get(name) === index) {
        removeScratchCopy(scratch.get(name));
        scratch.delete(name);
      }

      if (result.timedOut || result.code !== expectedExit) {
        const why = result.timedOut
          ? `timed out after ${timeoutS} s`
          : `${result.signal ? `ended by signal ${result.signal}` : `exited ${result.code}`}${expectedExit === 0 ? '' : `, expected exit=${expectedExit}`}`;
        const failedLine =
          result.code !== 0 && result.lineInBlock ? block.line + result.lineInBlock : block.line;
        problem(
          'runnable',
          file,
          failedLine,
          `runnable block ${why}\n${indent(lastLines(result.output, MAX_OUTPUT_LINES))}`,
        );
        continue;
      }
      const readEnd = ends.get(block);
      const realEnd = result.endDir === undefined ? undefined : dirFrom(cwd, result.endDir);
      if (readEnd !== undefined && realEnd !== undefined && realEnd !== readEnd) {
        problem(
          'cwd',
          file,
          block.line,
          `this block really ends with the shell in ${showDir(realEnd)}, though its top-level cd lines ` +
            `leave it in ${showDir(readEnd)}: the next block a reader pastes runs there. Keep every move in a subshell, \`( … )\``,
        );
      }
      const quote = id && markers.quotes.get(id);
      if (!quote) continue;
      compared++;
      const actual = blockOption(quote.block, 'stdout') === true ? result.stdout : result.output;
      const { ok, diff, updated } = compareOutput(blockText(quote.block), actual, { roots: [cwd, ROOT] });
      if (ok) continue;
      if (update) {
        updates.push({ quote, text: updated });
        continue;
      }
      problem(
        'outputs',
        quote.file,
        quote.block.line,
        `the quoted output of ${id} (${file}:${block.line}) drifted from the real one ` +
          `(- quoted, + real; volatile values do not count). Fix the quote, or run ` +
          `\`node scripts/check-docs.mjs --only ${id} --update\`:\n${indent(firstLines(diff, MAX_DIFF_LINES))}`,
      );
    }
  } finally {
    for (const dir of scratch.values()) removeScratchCopy(dir);
    stack?.stop();
  }
  for (const { quote } of updates) console.log(`updated   ${quote.file}:${quote.block.line}`);
  writeUpdates(updates);
  return { ran: selected.length, compared, updated: updates.length };
}

/** Replaces each quote's lines with its new text, bottom-up per file so line numbers hold. */
function writeUpdates(updates) {
  const byFile = new Map();
  for (const u of updates) byFile.set(u.quote.file, [...(byFile.get(u.quote.file) ?? []), u]);
  for (const [file, list] of byFile) {
    const absolute = path.join(ROOT, file);
    const lines = fs.readFileSync(absolute, 'utf8').split('\n');
    for (const { quote, text } of list.sort((a, b) => b.quote.block.line - a.quote.block.line)) {
      const pad = ' '.repeat(quote.block.indent);
      const body = text.split('\n').map((line) => (line ? pad + line : line));
      lines.splice(quote.block.line, quote.block.lines.length, ...body);
    }
    fs.writeFileSync(absolute, lines.join('\n'));
  }
}

function indent(text) {
  return text.replace(/^/gm, '      ');
}

function lastLines(text, n) {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}

function firstLines(text, n) {
  const lines = text.split('\n');
  return lines.length <= n ? text : [...lines.slice(0, n), `… (${lines.length - n} more lines)`].join('\n');
}

/** `dir` (absolute) relative to `base`, as scripts/lib/doc-cwd.mjs writes folders: `.` for the root. */
function dirFrom(base, dir) {
  const real = (p) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return p;
    }
  };
  const relative = path.relative(real(base), real(dir));
  if (relative === '') return ROOT_DIR;
  return path.isAbsolute(relative) ? relative : relative.split(path.sep).join('/');
}

/**
 * Runs `script` with bash in its own process group, so a timeout also ends what it started.
 * Resolves to { code, signal, timedOut, output (stdout and stderr as they came), stdout, lineInBlock,
 * endDir (the shell's folder when the script ended, or undefined) }.
 */
function runScript(script, timeoutMs, cwd) {
  // Where the shell is when the script ends, for the working-directory rule: written to a file,
  // so the block's output stays as it was.
  const pwdDir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-docs-pwd-'));
  const pwdFile = path.join(pwdDir, 'pwd');
  // On the first line, so bash's $LINENO matches the block's line numbers.
  const trap =
    `trap 'echo "__check_docs_failed_at__ $LINENO" >&2' ERR; ` +
    `trap 'printf "%s" "$PWD" > "$__CHECK_DOCS_PWD_FILE" 2>/dev/null || true' EXIT; `;
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', trap + script], {
      cwd,
      env: { ...process.env, CI: 'true', __CHECK_DOCS_PWD_FILE: pwdFile },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(child.pid); // anything the block left running in the background
      const at = /__check_docs_failed_at__ (\d+)/.exec(output);
      let endDir;
      try {
        endDir = fs.readFileSync(pwdFile, 'utf8') || undefined;
      } catch {
        // Killed before its EXIT trap ran.
      }
      fs.rmSync(pwdDir, { recursive: true, force: true });
      resolve({
        endDir,
        code,
        signal,
        timedOut,
        lineInBlock: at ? Number(at[1]) : undefined,
        output: output.replace(/^__check_docs_failed_at__ \d+\n?/gm, ''),
        stdout,
      });
    });
  });
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
