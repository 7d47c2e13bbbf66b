#!/usr/bin/env node
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
 *   4. runnable blocks: fenced blocks whose info string is `sh runnable` or `bash runnable`
 *      (optionally `timeout=SECONDS`, default 120) run from the repo root with CI=true. A block
 *      runs as one `bash -euo pipefail` script, so `cd` and variables carry from line to line;
 *      the first failing line stops it and is reported as file:line. Mark only commands that are
 *      offline, quick and leave nothing running, e.g.
 *
 *        ```sh runnable
 *        pnpm -s ask --json "What is 6 * 7?"
 *        ```
 *
 *   node scripts/check-docs.mjs              all four checks (builds the server first, via turbo's cache)
 *   node scripts/check-docs.mjs --skip-run   checks 1-3 only, for a quick local pass
 *
 * Exit code 1 with `file:line: problem` for each problem; 0 when the docs are clean.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_DIST = path.join(ROOT, 'services/mcp-server/dist');
const ALLOW_FILE = path.join(ROOT, 'scripts/check-docs.allow');
/** A runnable block is a quick example, not a test suite; two minutes covers a cold build. */
const DEFAULT_BLOCK_TIMEOUT_S = 120;
/** Enough of a failing block's output to see why, without flooding the CI log. */
const MAX_OUTPUT_LINES = 40;

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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log('usage: node scripts/check-docs.mjs [--skip-run]');
    return;
  }
  const files = markdownFiles();
  const docs = new Map(files.map((file) => [file, parseMarkdown(file)]));

  const links = checkLinks(docs);
  const scripts = checkScripts(docs);
  const tools = await checkToolNames(docs);
  const runnable = values['skip-run'] ? undefined : await runBlocks(docs);

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

/**
 * Splits a markdown file into prose lines (code spans kept, fences removed) and fenced blocks.
 * Good enough for our docs: ``` and ~~~ fences, ATX headings, no HTML-block parsing.
 */
function parseMarkdown(file) {
  const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split(/\r?\n/);
  const prose = [];
  const blocks = [];
  let block;
  lines.forEach((text, index) => {
    const line = index + 1;
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(text);
    if (block) {
      if (
        fence &&
        fence[1][0] === block.fence[0] &&
        fence[1].length >= block.fence.length &&
        !fence[2].trim()
      ) {
        blocks.push(block);
        block = undefined;
      } else {
        block.lines.push({ line, text });
      }
    } else if (fence && !(fence[1][0] === '`' && fence[2].includes('`'))) {
      const info = fence[2].trim().split(/\s+/).filter(Boolean);
      block = { fence: fence[1], line, lang: (info[0] ?? '').toLowerCase(), info, lines: [] };
    } else {
      prose.push({ line, text });
    }
  });
  if (block) blocks.push(block); // unterminated: runs to the end of the file, as GitHub renders it
  return { prose, blocks };
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
  return { checked, registered: tools.size, prompts: prompts.size, exercise: exercise.size };
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

/** Tool and prompt names from the built server (turbo rebuilds it only when its sources changed). */
async function serverNames() {
  execFileSync(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', '--filter=@mcp-workshop/mcp-server', '--output-logs=errors-only'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    },
  );
  const lib = await import(pathToFileURL(path.join(SERVER_DIST, 'lib.js')).href);
  const promptsModule = await import(pathToFileURL(path.join(SERVER_DIST, 'prompts/index.js')).href).catch(
    () => ({}),
  );
  return {
    tools: new Set(lib.tools.map((tool) => tool.name)),
    prompts: new Set((promptsModule.prompts ?? []).map((prompt) => prompt.name)),
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
// 4. runnable blocks

async function runBlocks(docs) {
  let ran = 0;
  for (const [file, { blocks }] of docs) {
    for (const block of blocks) {
      if (!['sh', 'bash'].includes(block.lang) || !block.info.includes('runnable')) continue;
      ran++;
      const timeoutOption = block.info.find((word) => word.startsWith('timeout='));
      const timeoutS = timeoutOption
        ? Number(timeoutOption.slice('timeout='.length))
        : DEFAULT_BLOCK_TIMEOUT_S;
      console.log(`running ${file}:${block.line} (${block.lines.length} lines, timeout ${timeoutS} s)`);
      const result = await runScript(block.lines.map((l) => l.text).join('\n'), timeoutS * 1000);
      if (result.ok) continue;
      const failedLine = result.lineInBlock ? block.line + result.lineInBlock : block.line;
      const tail = result.output.trimEnd().split('\n').slice(-MAX_OUTPUT_LINES).join('\n      ');
      problem('runnable', file, failedLine, `runnable block ${result.why}\n      ${tail}`);
    }
  }
  return { ran };
}

/** Runs `script` with bash in its own process group, so a timeout also ends what it started. */
function runScript(script, timeoutMs) {
  // On the first line, so bash's $LINENO matches the block's line numbers.
  const trap = `trap 'echo "__check_docs_failed_at__ $LINENO" >&2' ERR; `;
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', trap + script], {
      cwd: ROOT,
      env: { ...process.env, CI: 'true' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
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
      const clean = output.replace(/^__check_docs_failed_at__ \d+\n?/gm, '');
      if (timedOut) resolve({ ok: false, why: `timed out after ${timeoutMs / 1000} s`, output: clean });
      else if (code === 0) resolve({ ok: true });
      else
        resolve({
          ok: false,
          why: `failed (${signal ? `signal ${signal}` : `exit ${code}`})`,
          lineInBlock: at ? Number(at[1]) : undefined,
          output: clean,
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
