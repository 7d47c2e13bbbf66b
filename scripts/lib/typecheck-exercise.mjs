// @ts-check
/**
 * Typechecks a participant's exercise files with the real TypeScript compiler and the exercises
 * package's own tsconfig, for scripts/exercise.mjs: vitest strips types, so it runs code tsc refuses.
 */
import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';

/** A type error explained over more lines than this is cut: the first lines say what is wrong. */
const MAX_MESSAGE_LINES = 6;

/**
 * The type errors in `paths` (the participant's files), checked as one program under `tsconfig` (its
 * options, not its `include`, so other exercises' files are neither checked nor blamed). Only
 * errors located in those files, or in no file at all (a bad option), are returned: an error inside a
 * library or shared data is not the participant's to fix.
 *
 * Each is `{ file, text }`: `file` is the absolute path ('' for a global error), `text` reads like
 * tsc's own `path:line:col - error TS2322: ...`, with the path relative to `cwd`.
 */
export function typecheckFiles(paths, { tsconfig, cwd = process.cwd() }) {
  const files = paths.map((path) => resolve(path));
  // The compiler of the package that owns the tsconfig: the one its own `tsc` would run.
  const ts = createRequire(resolve(dirname(tsconfig), 'package.json'))('typescript');
  const config = ts.readConfigFile(tsconfig, ts.sys.readFile);
  if (config.error) return [{ file: '', text: format(ts, config.error, cwd) }];
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(tsconfig), undefined, tsconfig);
  const program = ts.createProgram({ rootNames: files, options: { ...parsed.options, noEmit: true } });
  const wanted = new Set(files);
  const errors = new Map();
  for (const file of files) {
    const source = program.getSourceFile(file);
    // What `tsc --noEmit` reports (declaration errors included), per file; global ones come with each, once kept.
    for (const diagnostic of source ? ts.getPreEmitDiagnostics(program, source) : []) {
      if (diagnostic.category !== ts.DiagnosticCategory.Error) continue;
      const where = diagnostic.file ? resolve(diagnostic.file.fileName) : '';
      if (where && !wanted.has(where)) continue;
      const text = format(ts, diagnostic, cwd);
      errors.set(`${where}\n${text}`, { file: where, text });
    }
  }
  return [...errors.values()];
}

/** `exercises/01-random-fact/starter/get-random-fact.ts:28:11 - error TS2322: Type ...`, as tsc prints it. */
function format(ts, diagnostic, cwd) {
  const lines = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n');
  const message =
    lines.length > MAX_MESSAGE_LINES
      ? [...lines.slice(0, MAX_MESSAGE_LINES), '  …'].join('\n')
      : lines.join('\n');
  const error = `error TS${diagnostic.code}: ${message}`;
  if (!diagnostic.file || diagnostic.start === undefined) return error;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${relative(cwd, diagnostic.file.fileName)}:${line + 1}:${character + 1} - ${error}`;
}
