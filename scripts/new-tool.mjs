#!/usr/bin/env node
// @ts-check
/**
 * `pnpm new-tool <snake_name>`: scaffolds a tool in services/mcp-server/src/tools from
 * `scripts/templates/tool.ts.tmpl` and `tool.test.ts.tmpl`, and registers it in `tools/index.ts`,
 * so the result passes `pnpm lint`, `pnpm typecheck` and `pnpm test` before you change a line, CI
 * included: `server-lists.test.ts` checks a tool its snapshot does not know by its shape, not its
 * bytes. `scripts/lib/new-tool.test.mjs` scaffolds one in a scratch copy and runs those tests.
 * Beside the tool goes `<file>.eval.yaml` (`tool.eval.yaml.tmpl`): one example case for `pnpm eval`,
 * which asks the model that question and checks it picks the new tool.
 *
 * With `--view`, the tool also gets an MCP Apps view, end to end, in one more file: its script
 * `views/workshop/<name>/main.ts` (`view-main.ts.tmpl`), whose folder is the view: `views/build.mjs`
 * builds it and `src/resources/views.ts` serves it as `ui://workshop/<name>`, both finding it by
 * that rule. The tool (`tool-view.ts.tmpl`) names that URI in its `ui` option and exports its
 * `output` schema, whose type the view imports. The views are then built into `dist/views/`, so its
 * test (`tool-view.test.ts.tmpl`) and the catalogue's view tests pass at once.
 *
 *   pnpm new-tool echo_text            writes tools/echo-text.ts, .test.ts and .eval.yaml, edits tools/index.ts
 *   pnpm new-tool echo_text --dry-run  prints what it would do and writes nothing
 *   pnpm new-tool echo_card --view     the same, plus views/workshop/echo-card/main.ts, and a build of the views
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_DIR = path.join(ROOT, 'services/mcp-server');
const TOOLS_DIR = path.join(SERVER_DIR, 'src/tools');
const INDEX = path.join(TOOLS_DIR, 'index.ts');
/**
 * Where a scaffolded view goes: `views/workshop/<name>/`, the view `ui://workshop/<name>` (a
 * folder under `views/` with a `main.ts` is a view, and its path is its URI).
 */
const VIEW_GROUP = 'workshop';
const VIEWS_DIR = path.join(SERVER_DIR, 'views', VIEW_GROUP);
const TEMPLATES = path.join(ROOT, 'scripts/templates');
/** The brief's rule, kept within the spec's 128-character limit with room for prefixes. */
const NAME_PATTERN = /^[a-z][a-z0-9_]{1,62}$/;
/** A single-word tool name must not become an identifier JavaScript reserves (`export const delete`). */
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof let new null package private protected public return static super switch this throw true try typeof var void while with yield await'.split(
    ' ',
  ),
);
const USAGE = `usage: pnpm new-tool <snake_case_name> [--view] [--dry-run]
  e.g. pnpm new-tool echo_text
  --view     give the tool an MCP Apps view, which hosts such as the chat page draw its results in
  --dry-run  print what it would do, and write nothing`;

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'dry-run': { type: 'boolean', default: false },
      view: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const [name] = positionals;
  if (positionals.length !== 1 || name === undefined) {
    throw new UsageError(`expected exactly one tool name.\n${USAGE}`);
  }
  const dryRun = values['dry-run'];
  const withView = values.view;

  validateName(name);
  const file = name.replaceAll('_', '-');
  const camel = name.replace(/_([a-z0-9])/g, (_m, c) => c.toUpperCase());
  const exportName = RESERVED.has(camel) ? `${camel}Tool` : camel;
  const title = name.charAt(0).toUpperCase() + name.slice(1).replaceAll('_', ' ');
  const uri = `ui://${VIEW_GROUP}/${file}`;

  const toolPath = path.join(TOOLS_DIR, `${file}.ts`);
  const testPath = path.join(TOOLS_DIR, `${file}.test.ts`);
  const casesPath = path.join(TOOLS_DIR, `${file}.eval.yaml`);
  const viewDir = path.join(VIEWS_DIR, file);
  const viewMainPath = path.join(viewDir, 'main.ts');
  const builtView = path.join(SERVER_DIR, 'dist/views', `${VIEW_GROUP}.${file}.html`);
  const targets = withView ? [toolPath, testPath, casesPath, viewDir] : [toolPath, testPath, casesPath];
  for (const target of targets) {
    if (fs.existsSync(target)) throw new UsageError(`${rel(target)} already exists; pick another name.`);
  }
  const registered = registeredToolNames();
  if (registered.has(name)) throw new UsageError(`a tool named "${name}" is already registered.`);

  /** @param {string} template */
  const fill = (template) =>
    fs
      .readFileSync(path.join(TEMPLATES, template), 'utf8')
      .replaceAll('__NAME__', name)
      .replaceAll('__FILE__', file)
      .replaceAll('__EXPORT__', exportName)
      .replaceAll('__TITLE__', title)
      .replaceAll('__URI__', uri)
      .replaceAll('__ASK__', withView ? VIEW_CASE_QUESTION : PLAIN_CASE_QUESTION);
  const toolSource = fill(withView ? 'tool-view.ts.tmpl' : 'tool.ts.tmpl');
  const testSource = fill(withView ? 'tool-view.test.ts.tmpl' : 'tool.test.ts.tmpl');
  const viewSource = withView ? fill('view-main.ts.tmpl') : undefined;
  const casesSource = fill('tool.eval.yaml.tmpl');
  const indexBefore = fs.readFileSync(INDEX, 'utf8');
  const indexAfter = register(indexBefore, exportName, `./${file}.js`);
  assertParses(indexAfter, rel(INDEX));
  assertParses(toolSource, rel(toolPath));
  assertParses(testSource, rel(testPath));
  if (viewSource !== undefined) assertParses(viewSource, rel(viewMainPath));
  assertCasesParse(casesSource, name, rel(casesPath));

  if (dryRun) {
    console.log(`[dry run] would create ${rel(toolPath)} (tool "${name}", export ${exportName})`);
    console.log(`[dry run] would create ${rel(testPath)}`);
    console.log(`[dry run] would create ${rel(casesPath)} (one example case for pnpm eval)`);
    if (withView) {
      console.log(`[dry run] would create ${rel(viewMainPath)} (the view ${uri}, found from its folder)`);
    }
    console.log(`[dry run] would register ${exportName} in ${rel(INDEX)}:`);
    console.log(diffLines(indexBefore, indexAfter));
    if (withView) console.log(`[dry run] would build the views into ${rel(path.dirname(builtView))}`);
    return;
  }

  fs.writeFileSync(toolPath, toolSource, { flag: 'wx' });
  fs.writeFileSync(testPath, testSource, { flag: 'wx' });
  fs.writeFileSync(casesPath, casesSource, { flag: 'wx' });
  if (viewSource !== undefined) {
    fs.mkdirSync(viewDir, { recursive: true });
    fs.writeFileSync(viewMainPath, viewSource, { flag: 'wx' });
  }
  fs.writeFileSync(INDEX, indexAfter);
  format(withView ? [toolPath, testPath, viewMainPath, INDEX] : [toolPath, testPath, INDEX]);
  if (!withView) {
    console.log(`created    ${rel(toolPath)}
created    ${rel(testPath)}
created    ${rel(casesPath)}
registered ${exportName} in ${rel(INDEX)}

Next steps:
  1. Edit ${rel(toolPath)}: the input and output schemas (a .describe() on every field),
     the title, the description (written for the model), the annotations and run().
  2. Edit its test beside it, then: pnpm --filter @mcp-workshop/mcp-server exec vitest run ${file}
  3. Try it: with pnpm dev running (it reloads the server on each save: no restart), call it:
     curl -s -X POST http://127.0.0.1:3000/tools/${name} -H 'content-type: application/json' -d '{"text":"hello"}'
  4. Does the model pick it? Write at least 3 cases in ${rel(casesPath)}, then: pnpm eval
  5. Before you push: pnpm lint && pnpm typecheck && pnpm test
     (server-lists.test.ts checks how tools/list shows ${name}: its file, description, schemas, annotations)`);
    return;
  }
  console.log(`created    ${rel(toolPath)}
created    ${rel(testPath)}
created    ${rel(casesPath)}
created    ${rel(viewMainPath)} (the view ${uri})
registered ${exportName} in ${rel(INDEX)}`);
  const built = buildViews();
  console.log(
    built
      ? `built      ${rel(builtView)}`
      : 'not built  the views: run pnpm build before the tests (the error is above)',
  );
  console.log(`
Next steps:
  1. Edit ${rel(toolPath)}: the input and output schemas (a .describe() on every field),
     the title, the description (written for the model), the annotations and run().
  2. Make the view draw what run() returns: show() in ${rel(viewMainPath)}.
     Its Output type is the tool's output schema, so pnpm typecheck names what to change.
  3. See it: with pnpm dev running (a save reloads the tool and rebuilds its view: no restart),
     open http://127.0.0.1:3001 and ask for it, e.g.
     ${viewQuestion(name)}
     The chat page draws the result in ${uri}.
  4. Test both: pnpm --filter @mcp-workshop/mcp-server exec vitest run ${file}
     (the test reads the built view, which pnpm dev rebuilds on each save; without it, pnpm build first)
  5. Does the model pick it? Write at least 3 cases in ${rel(casesPath)}, then: pnpm eval
  6. Before you push: pnpm lint && pnpm typecheck && pnpm test
     (views.test.ts and tool-views.test.ts check every tool's view: listed, self-contained, no outside origin)`);
}

/**
 * The example question for a `--view` tool: it names the tool and what its template does (a text
 * on a card), so the offline demo model, which picks tools by the words of their names and
 * descriptions, calls this tool and not a plain scaffolded one (whose template counts characters).
 */
/** @param {string} name */
function viewQuestion(name) {
  return `Show "hello world" on a card with ${name}.`;
}

/**
 * The example case of a new tool's `.eval.yaml`: a question a person might ask that its scaffolded
 * description answers (`tool.ts.tmpl` counts characters, `tool-view.ts.tmpl` shows a text on a
 * card), so `pnpm eval` passes on a fresh scaffold, offline too: new-tool-next-steps.test.mjs asks
 * the demo model both, with the whole catalogue offered.
 */
const PLAIN_CASE_QUESTION = 'How many characters are in the text "hello world"?';
const VIEW_CASE_QUESTION = 'Display the words "hello world" on a card.';

/** Thrown for anything the person running the script can fix: printed without a stack. */
class UsageError extends Error {}

/** @param {string} name */
function validateName(name) {
  if (!NAME_PATTERN.test(name) || name.includes('__') || name.endsWith('_')) {
    throw new UsageError(
      `"${name}" is not a valid tool name: use snake_case, 2 to 63 characters, starting with a letter ` +
        '(a-z, 0-9 and single underscores), e.g. echo_text.',
    );
  }
}

/** Tool names declared in the tool sources (`name: '...'` inside a defineTool call). */
function registeredToolNames() {
  /** @type {Set<string>} */
  const names = new Set();
  for (const entry of fs.readdirSync(TOOLS_DIR)) {
    if (!entry.endsWith('.ts') || entry.endsWith('.test.ts')) continue;
    const source = fs.readFileSync(path.join(TOOLS_DIR, entry), 'utf8');
    for (const match of source.matchAll(/defineTool\(\{\s*name:\s*['"]([^'"]+)['"]/g)) {
      if (match[1] !== undefined) names.add(match[1]);
    }
  }
  return names;
}

/**
 * Adds the import in sorted position and appends the export to the `tools` array.
 * @param {string} source  the text of `tools/index.ts`
 * @param {string} exportName
 * @param {string} specifier  e.g. `./echo-text.js`
 */
function register(source, exportName, specifier) {
  const lines = source.split('\n');
  const importRe = /^import (type )?\{ ?([^}]*?) ?\} from '([^']+)';$/;
  /** @type {Array<{ index: number, bound: string[], from: string }>} */
  const imports = [];
  lines.forEach((line, index) => {
    const match = importRe.exec(line);
    if (match) {
      const bound = (match[2] ?? '').split(',').map((part) => part.trim().replace(/^type /, ''));
      imports.push({ index, bound, from: match[3] ?? '' });
    }
  });
  if (imports.length === 0) throw new Error(`no single-line imports found in ${rel(INDEX)}`);
  for (const { bound, from } of imports) {
    if (bound.includes(exportName)) throw new UsageError(`${rel(INDEX)} already imports ${exportName}.`);
    if (from === specifier) throw new UsageError(`${rel(INDEX)} already imports ${specifier}.`);
  }
  const after = imports.find(({ from }) => from.localeCompare(specifier) > 0);
  const importLine = `import { ${exportName} } from '${specifier}';`;
  lines.splice(after ? after.index : (imports.at(-1)?.index ?? 0) + 1, 0, importLine);

  let text = lines.join('\n');
  const arrayRe = /(export const tools\b[^=]*=\s*\[)([\s\S]*?)(\n?\];)/;
  const array = arrayRe.exec(text);
  if (!array) throw new Error(`could not find "export const tools = [ ... ];" in ${rel(INDEX)}`);
  const body = (array[2] ?? '').replace(/,?\s*$/, '');
  const entries = body.trim() === '' ? `\n  ${exportName},` : `${body},\n  ${exportName},`;
  text = text.replace(arrayRe, `$1${entries}$3`);
  if (!new RegExp(`\\[[\\s\\S]*\\b${exportName},[\\s\\S]*\\];`).test(text)) {
    throw new Error(`registering ${exportName} in ${rel(INDEX)} failed; add it by hand`);
  }
  return text;
}

/** Builds every view into dist/views (a few seconds), as `pnpm build` does; false when it failed. */
function buildViews() {
  const result = spawnSync(process.execPath, ['views/build.mjs'], {
    cwd: SERVER_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return result.status === 0;
}

/**
 * Fails if `source` has TypeScript syntax errors, so a bad text edit never reaches disk.
 * @param {string} source
 * @param {string} label  the file's path, for the message
 */
function assertParses(source, label) {
  /** @type {typeof import('typescript')} */
  const ts = createRequire(path.join(ROOT, 'package.json'))('typescript');
  const { diagnostics = [] } = ts.transpileModule(source, {
    reportDiagnostics: true,
    fileName: label,
    compilerOptions: { module: ts.ModuleKind.NodeNext },
  });
  if (diagnostics.length > 0) {
    const text = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n');
    throw new Error(`${label} would not parse after the edit:\n${text}`);
  }
}

/**
 * Fails if the cases file is not YAML naming the new tool, so a broken template never reaches disk.
 * @param {string} source
 * @param {string} name  the tool's name, which the file's `tool:` must be
 * @param {string} label  the file's path, for the message
 */
function assertCasesParse(source, name, label) {
  /** @type {typeof import('yaml')} */
  const yaml = createRequire(path.join(ROOT, 'package.json'))('yaml');
  const parsed = yaml.parse(source);
  if (parsed?.tool !== name || !Array.isArray(parsed.cases) || parsed.cases.length === 0) {
    throw new Error(`${label} would not name ${name} with at least one case: check tool.eval.yaml.tmpl`);
  }
}

/** @param {string[]} files */
function format(files) {
  const local = path.join(ROOT, 'node_modules/.bin/biome');
  /** @type {[string, string[]]} */
  const [command, args] = fs.existsSync(local) ? [local, []] : ['npx', ['biome']];
  execFileSync(command, [...args, 'check', '--write', ...files], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * The lines `after` adds to `before`, with their line numbers; enough for a dry run.
 * @param {string} before
 * @param {string} after
 */
function diffLines(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  // Longest common subsequence, from the end: common[i][j] for a[i..] and b[j..]. Files are small.
  /** @type {number[][]} */
  const common = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  /** @param {number} row @param {number} column */
  const at = (row, column) => common[row]?.[column] ?? 0;
  for (let i = a.length - 1; i >= 0; i--) {
    const row = /** @type {number[]} */ (common[i]);
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const added = [];
  let i = 0;
  let j = 0;
  while (j < b.length) {
    if (i < a.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (i < a.length && at(i + 1, j) >= at(i, j + 1)) {
      i++; // a line `after` dropped; the scaffold never drops one
    } else {
      added.push(`  +${String(j + 1).padStart(4)} ${b[j]}`);
      j++;
    }
  }
  return added.join('\n');
}

/** @param {string} file */
function rel(file) {
  return path.relative(ROOT, file);
}

try {
  main();
} catch (err) {
  const code = /** @type {{ code?: unknown } | undefined} */ (err)?.code;
  if (err instanceof Error && (err instanceof UsageError || String(code).startsWith('ERR_PARSE_ARGS'))) {
    console.error(`new-tool: ${err.message}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
}
