#!/usr/bin/env node
/**
 * `pnpm new-tool <snake_name>`: scaffolds a tool in services/mcp-server/src/tools from
 * `scripts/templates/tool.ts.tmpl` and `tool.test.ts.tmpl`, and registers it in `tools/index.ts`,
 * so the result passes `pnpm lint`, `pnpm typecheck` and `pnpm test` before you change a line, CI
 * included: `server-lists.test.ts` checks a tool its snapshot does not know by its shape, not its
 * bytes. `scripts/lib/new-tool.test.mjs` scaffolds one in a scratch copy and runs those tests.
 *
 *   pnpm new-tool echo_text            writes tools/echo-text.ts, tools/echo-text.test.ts, edits tools/index.ts
 *   pnpm new-tool echo_text --dry-run  prints what it would do and writes nothing
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS_DIR = path.join(ROOT, 'services/mcp-server/src/tools');
const INDEX = path.join(TOOLS_DIR, 'index.ts');
const TEMPLATES = path.join(ROOT, 'scripts/templates');
/** The brief's rule, kept within the spec's 128-character limit with room for prefixes. */
const NAME_PATTERN = /^[a-z][a-z0-9_]{1,62}$/;
/** A single-word tool name must not become an identifier JavaScript reserves (`export const delete`). */
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof let new null package private protected public return static super switch this throw true try typeof var void while with yield await'.split(
    ' ',
  ),
);
const USAGE = `usage: pnpm new-tool <snake_case_name> [--dry-run]
  e.g. pnpm new-tool echo_text`;

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'dry-run': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 1) throw new UsageError(`expected exactly one tool name.\n${USAGE}`);
  const name = positionals[0];
  const dryRun = values['dry-run'];

  validateName(name);
  const file = name.replaceAll('_', '-');
  const camel = name.replace(/_([a-z0-9])/g, (_m, c) => c.toUpperCase());
  const exportName = RESERVED.has(camel) ? `${camel}Tool` : camel;
  const title = name.charAt(0).toUpperCase() + name.slice(1).replaceAll('_', ' ');

  const toolPath = path.join(TOOLS_DIR, `${file}.ts`);
  const testPath = path.join(TOOLS_DIR, `${file}.test.ts`);
  for (const target of [toolPath, testPath]) {
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
      .replaceAll('__TITLE__', title);
  const toolSource = fill('tool.ts.tmpl');
  const testSource = fill('tool.test.ts.tmpl');
  const indexBefore = fs.readFileSync(INDEX, 'utf8');
  const indexAfter = register(indexBefore, exportName, `./${file}.js`);
  assertParses(indexAfter, rel(INDEX));
  assertParses(toolSource, rel(toolPath));
  assertParses(testSource, rel(testPath));

  if (dryRun) {
    console.log(`[dry run] would create ${rel(toolPath)} (tool "${name}", export ${exportName})`);
    console.log(`[dry run] would create ${rel(testPath)}`);
    console.log(`[dry run] would register ${exportName} in ${rel(INDEX)}:`);
    console.log(diffLines(indexBefore, indexAfter));
    return;
  }

  fs.writeFileSync(toolPath, toolSource, { flag: 'wx' });
  fs.writeFileSync(testPath, testSource, { flag: 'wx' });
  fs.writeFileSync(INDEX, indexAfter);
  format([toolPath, testPath, INDEX]);
  console.log(`created    ${rel(toolPath)}
created    ${rel(testPath)}
registered ${exportName} in ${rel(INDEX)}

Next steps:
  1. Edit ${rel(toolPath)}: the input and output schemas (a .describe() on every field),
     the title, the description (written for the model), the annotations and run().
  2. Edit its test beside it, then: pnpm --filter @mcp-workshop/mcp-server exec vitest run ${file}
  3. Try it: pnpm start, then
     curl -s -X POST http://127.0.0.1:3000/tools/${name} -H 'content-type: application/json' -d '{"text":"hello"}'
  4. Before you push: pnpm lint && pnpm typecheck && pnpm test
     (server-lists.test.ts checks how tools/list shows ${name}: its file, description, schemas, annotations)`);
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
  const old = new Set(before.split('\n'));
  return after
    .split('\n')
    .map((line, i) => (old.has(line) ? undefined : `  +${String(i + 1).padStart(4)} ${line}`))
    .filter(Boolean)
    .join('\n');
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
