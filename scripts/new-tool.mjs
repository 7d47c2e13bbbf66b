#!/usr/bin/env node
/**
 * `pnpm new-tool <snake_name>`: scaffolds a tool in services/mcp-server/src/tools from
 * `scripts/templates/tool.ts.tmpl` and `tool.test.ts.tmpl`, and registers it in `tools/index.ts`,
 * so the result passes `pnpm lint`, `pnpm typecheck` and `pnpm test` before you change a line, CI
 * included: `server-lists.test.ts` checks a tool its snapshot does not know by its shape, not its
 * bytes. `scripts/lib/new-tool.test.mjs` scaffolds one in a scratch copy and runs those tests.
 *
 * With `--view`, the tool also gets an MCP Apps view, end to end: the tool names it in its `ui`
 * option (`tool-view.ts.tmpl`), the view's page and script go to `views/<name>.html` and
 * `views/<name>/main.ts` (`view.html.tmpl`, `view-main.ts.tmpl`), which `views/build.mjs` finds by
 * itself, its `ui://workshop/<name>` resource is registered in `src/resources/views.ts`, and the
 * view is built into `dist/views/`, so its test (`tool-view.test.ts.tmpl`) and the catalogue's view
 * tests, which follow the registered views, pass at once.
 *
 *   pnpm new-tool echo_text            writes tools/echo-text.ts, tools/echo-text.test.ts, edits tools/index.ts
 *   pnpm new-tool echo_text --dry-run  prints what it would do and writes nothing
 *   pnpm new-tool echo_card --view     the same, plus views/echo-card.html, views/echo-card/main.ts,
 *                                      its entry in resources/views.ts, and a build of the views
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
/** The views' sources; `views/build.mjs` builds every `*.html` in it. */
const VIEWS_DIR = path.join(SERVER_DIR, 'views');
/** Where each view gets its `ui://` URI, title, description and CSP. */
const VIEW_REGISTRY = path.join(SERVER_DIR, 'src/resources/views.ts');
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
  if (positionals.length !== 1) throw new UsageError(`expected exactly one tool name.\n${USAGE}`);
  const name = positionals[0];
  const dryRun = values['dry-run'];
  const withView = values.view;

  validateName(name);
  const file = name.replaceAll('_', '-');
  const camel = name.replace(/_([a-z0-9])/g, (_m, c) => c.toUpperCase());
  const exportName = RESERVED.has(camel) ? `${camel}Tool` : camel;
  const title = name.charAt(0).toUpperCase() + name.slice(1).replaceAll('_', ' ');
  const view = withView
    ? { uri: `ui://workshop/${file}`, constName: `${name.toUpperCase()}_VIEW_URI`, file: `${file}.html` }
    : undefined;

  const toolPath = path.join(TOOLS_DIR, `${file}.ts`);
  const testPath = path.join(TOOLS_DIR, `${file}.test.ts`);
  const viewHtmlPath = path.join(VIEWS_DIR, `${file}.html`);
  const viewDir = path.join(VIEWS_DIR, file);
  const viewMainPath = path.join(viewDir, 'main.ts');
  const targets = view ? [toolPath, testPath, viewHtmlPath, viewDir] : [toolPath, testPath];
  for (const target of targets) {
    if (fs.existsSync(target)) throw new UsageError(`${rel(target)} already exists; pick another name.`);
  }
  const registered = registeredToolNames();
  if (registered.has(name)) throw new UsageError(`a tool named "${name}" is already registered.`);

  const fill = (template) =>
    fs
      .readFileSync(path.join(TEMPLATES, template), 'utf8')
      .replaceAll('__NAME__', name)
      .replaceAll('__FILE__', file)
      .replaceAll('__EXPORT__', exportName)
      .replaceAll('__TITLE__', title)
      .replaceAll('__CONST__', view?.constName ?? '__CONST__')
      .replaceAll('__URI__', view?.uri ?? '__URI__');
  const toolSource = fill(view ? 'tool-view.ts.tmpl' : 'tool.ts.tmpl');
  const testSource = fill(view ? 'tool-view.test.ts.tmpl' : 'tool.test.ts.tmpl');
  const indexBefore = fs.readFileSync(INDEX, 'utf8');
  const indexAfter = register(indexBefore, exportName, `./${file}.js`);
  assertParses(indexAfter, rel(INDEX));
  assertParses(toolSource, rel(toolPath));
  assertParses(testSource, rel(testPath));
  let viewFiles;
  let registryBefore;
  let registryAfter;
  if (view) {
    viewFiles = [
      [viewHtmlPath, fill('view.html.tmpl')],
      [viewMainPath, fill('view-main.ts.tmpl')],
    ];
    assertParses(viewFiles[1][1], rel(viewMainPath));
    registryBefore = fs.readFileSync(VIEW_REGISTRY, 'utf8');
    registryAfter = registerView(registryBefore, { ...view, name, title, resourceName: file });
    assertParses(registryAfter, rel(VIEW_REGISTRY));
  }

  if (dryRun) {
    console.log(`[dry run] would create ${rel(toolPath)} (tool "${name}", export ${exportName})`);
    console.log(`[dry run] would create ${rel(testPath)}`);
    if (view) {
      console.log(
        `[dry run] would create ${rel(viewHtmlPath)} (the view ${view.uri}, built by views/build.mjs)`,
      );
      console.log(`[dry run] would create ${rel(viewMainPath)}`);
    }
    console.log(`[dry run] would register ${exportName} in ${rel(INDEX)}:`);
    console.log(diffLines(indexBefore, indexAfter));
    if (view) {
      console.log(`[dry run] would register ${view.uri} in ${rel(VIEW_REGISTRY)}:`);
      console.log(diffLines(registryBefore, registryAfter));
      console.log(`[dry run] would build the views into ${rel(path.join(SERVER_DIR, 'dist/views'))}`);
    }
    return;
  }

  fs.writeFileSync(toolPath, toolSource, { flag: 'wx' });
  fs.writeFileSync(testPath, testSource, { flag: 'wx' });
  if (view) {
    fs.mkdirSync(viewDir);
    for (const [target, source] of viewFiles) fs.writeFileSync(target, source, { flag: 'wx' });
    fs.writeFileSync(VIEW_REGISTRY, registryAfter);
  }
  fs.writeFileSync(INDEX, indexAfter);
  format(view ? [toolPath, testPath, viewMainPath, INDEX, VIEW_REGISTRY] : [toolPath, testPath, INDEX]);
  if (!view) {
    console.log(`created    ${rel(toolPath)}
created    ${rel(testPath)}
registered ${exportName} in ${rel(INDEX)}

Next steps:
  1. Edit ${rel(toolPath)}: the input and output schemas (a .describe() on every field),
     the title, the description (written for the model), the annotations and run().
  2. Edit its test beside it, then: pnpm --filter @mcp-workshop/mcp-server exec vitest run ${file}
  3. Try it: with pnpm dev running (it reloads the server on each save: no restart), call it:
     curl -s -X POST http://127.0.0.1:3000/tools/${name} -H 'content-type: application/json' -d '{"text":"hello"}'
  4. Before you push: pnpm lint && pnpm typecheck && pnpm test
     (server-lists.test.ts checks how tools/list shows ${name}: its file, description, schemas, annotations)`);
    return;
  }
  console.log(`created    ${rel(toolPath)}
created    ${rel(testPath)}
created    ${rel(viewHtmlPath)}
created    ${rel(viewMainPath)}
registered ${exportName} in ${rel(INDEX)}
registered ${view.uri} in ${rel(VIEW_REGISTRY)}`);
  const built = buildViews();
  console.log(
    built
      ? `built      ${rel(path.join(SERVER_DIR, 'dist/views', view.file))}`
      : 'not built  the views: run pnpm build before the tests (the error is above)',
  );
  console.log(`
Next steps:
  1. Edit ${rel(toolPath)}: the input and output schemas (a .describe() on every field),
     the title, the description (written for the model), the annotations and run().
  2. Make the view draw what run() returns: parse() and show() in ${rel(viewMainPath)},
     the page ${rel(viewHtmlPath)}, and its title and description in ${rel(VIEW_REGISTRY)}.
  3. Test both: pnpm --filter @mcp-workshop/mcp-server exec vitest run ${file}
     (the test reads the built view: after you change the view, pnpm build first)
  4. See it: with pnpm dev running (a save reloads the tool and rebuilds its view: no restart),
     open http://127.0.0.1:3001 and ask for it, e.g.
     ${viewQuestion(name)}
     The chat page draws the result in ${view.uri}.
  5. Before you push: pnpm lint && pnpm typecheck && pnpm test
     (views.test.ts and tool-views.test.ts check every tool's view: listed, self-contained, no outside origin)`);
}

/**
 * The example question for a `--view` tool: it names the tool and what its template does (a text
 * on a card), so the offline demo model, which picks tools by the words of their names and
 * descriptions, calls this tool and not a plain scaffolded one (whose template counts characters).
 */
function viewQuestion(name) {
  return `Show "hello world" on a card with ${name}.`;
}

/** Thrown for anything the person running the script can fix: printed without a stack. */
class UsageError extends Error {}

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
  const names = new Set();
  for (const entry of fs.readdirSync(TOOLS_DIR)) {
    if (!entry.endsWith('.ts') || entry.endsWith('.test.ts')) continue;
    const source = fs.readFileSync(path.join(TOOLS_DIR, entry), 'utf8');
    for (const match of source.matchAll(/defineTool\(\{\s*name:\s*['"]([^'"]+)['"]/g)) names.add(match[1]);
  }
  return names;
}

/** Adds the import in sorted position and appends the export to the `tools` array. */
function register(source, exportName, specifier) {
  const lines = source.split('\n');
  const importRe = /^import (type )?\{ ?([^}]*?) ?\} from '([^']+)';$/;
  const imports = lines.map((line, index) => ({ index, match: importRe.exec(line) })).filter((i) => i.match);
  if (imports.length === 0) throw new Error(`no single-line imports found in ${rel(INDEX)}`);
  for (const { match } of imports) {
    const bound = match[2].split(',').map((part) => part.trim().replace(/^type /, ''));
    if (bound.includes(exportName)) throw new UsageError(`${rel(INDEX)} already imports ${exportName}.`);
    if (match[3] === specifier) throw new UsageError(`${rel(INDEX)} already imports ${specifier}.`);
  }
  const after = imports.find(({ match }) => match[3].localeCompare(specifier) > 0);
  const importLine = `import { ${exportName} } from '${specifier}';`;
  lines.splice(after ? after.index : (imports.at(-1)?.index ?? 0) + 1, 0, importLine);

  let text = lines.join('\n');
  const arrayRe = /(export const tools\b[^=]*=\s*\[)([\s\S]*?)(\n?\];)/;
  const array = arrayRe.exec(text);
  if (!array) throw new Error(`could not find "export const tools = [ ... ];" in ${rel(INDEX)}`);
  const body = array[2].replace(/,?\s*$/, '');
  const entries = body.trim() === '' ? `\n  ${exportName},` : `${body},\n  ${exportName},`;
  text = text.replace(arrayRe, `$1${entries}$3`);
  if (!new RegExp(`\\[[\\s\\S]*\\b${exportName},[\\s\\S]*\\];`).test(text)) {
    throw new Error(`registering ${exportName} in ${rel(INDEX)} failed; add it by hand`);
  }
  return text;
}

/**
 * Adds `export const <constName> = '<uri>';` after the last `ui://` constant of `resources/views.ts`,
 * and the view's entry at the end of the list `viewSpecs` returns: its URI, the name and file
 * `views/build.mjs` gives it, a title, a description, and a CSP that names no outside origin.
 */
function registerView(source, { uri, constName, file, name, title, resourceName }) {
  if (source.includes(`'${uri}'`)) throw new UsageError(`${rel(VIEW_REGISTRY)} already has a view ${uri}.`);
  if (new RegExp(`\\b${constName}\\b`).test(source)) {
    throw new UsageError(`${rel(VIEW_REGISTRY)} already has ${constName}; pick another name.`);
  }
  const uriConstants = [...source.matchAll(/^export const \w+ = 'ui:\/\/[^']*';$/gm)];
  const lastConstant = uriConstants.at(-1);
  if (!lastConstant) throw new Error(`no "export const ... = 'ui://...';" found in ${rel(VIEW_REGISTRY)}`);
  const at = lastConstant.index + lastConstant[0].length;
  let text = `${source.slice(0, at)}\nexport const ${constName} = '${uri}';${source.slice(at)}`;

  const listRe = /(function viewSpecs\([^)]*\)[^{]*\{\n\s*return \[\n)([\s\S]*?)(\n {2}\];\n\})/;
  if (!listRe.test(text)) {
    throw new Error(`could not find "function viewSpecs(...) { return [ ... ]; }" in ${rel(VIEW_REGISTRY)}`);
  }
  const entry = [
    '    {',
    `      uri: ${constName},`,
    `      name: '${resourceName}',`,
    `      title: '${title} view',`,
    `      description: 'Draws a ${name} result: the text and its length.',`,
    `      file: '${file}',`,
    '      csp: { connectDomains: [], resourceDomains: [] },',
    '    },',
  ].join('\n');
  text = text.replace(
    listRe,
    (_m, head, body, tail) => `${head}${body.replace(/,?\s*$/, ',')}\n${entry}${tail}`,
  );
  if (!text.includes(`      uri: ${constName},`)) {
    throw new Error(`registering ${uri} in ${rel(VIEW_REGISTRY)} failed; add it by hand`);
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

/** Fails if `source` has TypeScript syntax errors, so a bad text edit never reaches disk. */
function assertParses(source, label) {
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

function format(files) {
  const local = path.join(ROOT, 'node_modules/.bin/biome');
  const [command, args] = fs.existsSync(local) ? [local, []] : ['npx', ['biome']];
  execFileSync(command, [...args, 'check', '--write', ...files], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** The lines `after` adds to `before`, with their line numbers; enough for a dry run. */
function diffLines(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  // Longest common subsequence, from the end: common[i][j] for a[i..] and b[j..]. Files are small.
  const common = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
    }
  }
  const added = [];
  let i = 0;
  let j = 0;
  while (j < b.length) {
    if (i < a.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (i < a.length && common[i + 1][j] >= common[i][j + 1]) {
      i++; // a line `after` dropped; the scaffold never drops one
    } else {
      added.push(`  +${String(j + 1).padStart(4)} ${b[j]}`);
      j++;
    }
  }
  return added.join('\n');
}

function rel(file) {
  return path.relative(ROOT, file);
}

try {
  main();
} catch (err) {
  if (err instanceof UsageError || String(err?.code).startsWith('ERR_PARSE_ARGS')) {
    console.error(`new-tool: ${err.message}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
}
