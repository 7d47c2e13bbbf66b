// @ts-check
/**
 * A rule of scripts/check-docs.mjs: the shell blocks of a doc, pasted in order into one shell that
 * starts at the repository root, run each where it was written to run. Pure: `doc-cwd.test.mjs`
 * covers it.
 *
 * The checker runs every runnable block from the root, in a shell of its own, so a block that ends
 * with the shell in another folder passes there, and the reader who pastes the next one gets
 * `Command "new-tool" not found`. So, in a doc with runnable blocks, every shell block (```sh,
 * ```bash, ```shell, ```zsh; runnable or not: a reader pastes a checkpoint too) is read for the `cd`,
 * `pushd` and `popd` at its top level (a `cd` in `( … )`, `$( … )`, a pipeline or `&` runs in a
 * subshell and moves nothing), and
 *   - a block starts where the blocks before it left the shell: the root, or the folder its info
 *     string names with `cwd=DIR` (relative to the root) when it is meant to run there;
 *   - a section (a `#` or `##` heading: a module of the workshop) starts at the root, and so does the
 *     end of the file;
 *   - a top-level `cd` whose folder cannot be read from the text (`cd "$DIR"`, `cd` alone) is a problem
 *     of its own: the checker cannot follow it, and neither can a reader.
 * check-docs also runs each runnable block to its end and compares the folder it really ends in
 * (`$PWD` at exit) with the one these rules read, so a move they cannot see is caught too.
 */
import path from 'node:path';

/** The repository root, as these rules write folders: relative to it, posix. */
export const ROOT_DIR = '.';
/** Shell blocks a reader pastes; ```console holds prompts and output, so it is left out. */
export const SHELL_BLOCK_LANGS = new Set(['sh', 'bash', 'shell', 'zsh']);
/** Words that may come before a command without changing what it is: `if cd x; then …`. */
const LEADING_WORDS = new Set(['if', 'then', 'do', 'else', 'elif', 'while', 'until', '{', '!', 'time']);
const ASSIGNMENT = /^[A-Za-z_]\w*=/;

/** "the repository root" or the folder, for messages. */
export function showDir(dir) {
  if (dir === undefined) return 'a folder the checker cannot tell';
  return dir === ROOT_DIR ? 'the repository root' : dir;
}

/**
 * Where `script` leaves the shell when it starts in `start` (relative to the root), with `previous`
 * as `cd -`'s folder, and every command succeeds: { end, previous, moves, unreadable }. `end` is undefined when a top-level `cd` names a folder the
 * text does not give; `moves` are the top-level `cd`/`pushd`/`popd` commands that changed it, each
 * { line (1-based in the script), command, to }; `unreadable` those whose folder it could not read.
 */
/**
 * @param {string} script
 * @param {string | undefined} [start]
 * @param {string | undefined} [previous]
 */
export function cdEffect(script, start = ROOT_DIR, previous = undefined) {
  /** @type {string | undefined} */
  let dir = start;
  const stack = []; // pushd's
  const moves = [];
  const unreadable = [];
  for (const command of topLevelCommands(script)) {
    const words = command.words.slice();
    while (words.length > 0 && (LEADING_WORDS.has(words[0]) || ASSIGNMENT.test(words[0]))) words.shift();
    const [name, ...rest] = words;
    if (name !== 'cd' && name !== 'pushd' && name !== 'popd') continue;
    if (command.subshell) continue; // a part of a pipeline, or run with `&`
    const args = rest.filter((word) => !/^-[LPe@]+$/.test(word) && word !== '--');
    const text = command.words.join(' ');
    let to;
    if (name === 'popd') {
      to = stack.length > 0 ? stack.pop() : undefined;
    } else if (name === 'cd' && args[0] === '-') {
      to = previous;
    } else if (args.length === 0) {
      to = undefined; // cd alone: the home folder; pushd alone: swaps with the stack
    } else {
      const literal = unquote(args[0]);
      to = literal === undefined ? undefined : resolve(dir, literal);
      if (name === 'pushd') stack.push(dir);
    }
    if (to === undefined) unreadable.push({ line: command.line, command: text });
    previous = dir;
    dir = to;
    moves.push({ line: command.line, command: text, to });
  }
  return { end: dir, previous, moves, unreadable };
}

/** `to` from `from`, both relative to the root (or absolute), or undefined when `from` is unknown. */
function resolve(from, to) {
  if (to.startsWith('/')) return path.posix.normalize(to);
  if (from === undefined) return undefined;
  return path.posix.normalize(path.posix.join(from, to)).replace(/\/$/, '') || ROOT_DIR;
}

/** A word as the shell reads it, when it is plain text: `dir`, `'dir'`, `"dir"`; else undefined. */
function unquote(word) {
  if (/^'[^']*'$/.test(word)) return word.slice(1, -1);
  if (/^"[^"$`\\]*"$/.test(word)) return word.slice(1, -1);
  if (/^[^'"$`\\~*?[\]{}]+$/.test(word)) return word;
  return undefined;
}

/**
 * The simple commands of `script` at its top level, in order: { line, words, subshell }, `words`
 * as written (quotes kept), `subshell` when the command runs in one (a pipeline's part, or `&`).
 * Text in quotes, `( … )`, `$( … )`, backticks and here-documents is kept inside its word, never
 * split into commands: a `cd` there is not a top-level one.
 */
export function topLevelCommands(script) {
  const commands = [];
  const nested = []; // open quotes and brackets: "'", '"', '`', '(' (also for `$(`)
  const newlines = [...script.matchAll(/\n/g)].map((m) => m.index);
  const lineOf = (index) => 1 + newlines.filter((at) => at < index).length;
  let words = [];
  let word = '';
  let wordStart = 0;
  let commandLine = 1;
  let pipedIn = false;
  const heredocs = [];
  let i = 0;
  const add = (text) => {
    if (word === '') wordStart = i;
    word += text;
  };
  const endWord = () => {
    if (word !== '') {
      if (words.length === 0) commandLine = lineOf(wordStart);
      words.push(word);
    }
    word = '';
  };
  const endCommand = (separator) => {
    endWord();
    if (words.length > 0) {
      commands.push({
        line: commandLine,
        words,
        subshell: pipedIn || separator === '|' || separator === '&',
      });
    }
    words = [];
    pipedIn = separator === '|';
  };
  for (; i < script.length; i++) {
    const c = script[i];
    const next = script[i + 1];
    const inside = nested.at(-1);
    if (inside === "'") {
      add(c);
      if (c === "'") nested.pop();
      continue;
    }
    if (inside === '"' || inside === '`' || inside === '(') {
      add(c);
      if (c === '\\' && next !== undefined) {
        add(next);
        i++;
      } else if (inside !== '(' && c === inside) nested.pop();
      else if (inside === '(' && c === ')') nested.pop();
      else if (c === '$' && next === '(') {
        add(next);
        i++;
        nested.push('(');
      } else if (c === '`') nested.push('`');
      else if (inside === '(' && (c === '(' || c === "'" || c === '"')) nested.push(c);
      continue;
    }
    // Top level.
    if (c === '\\' && next === '\n') {
      i++;
      continue;
    }
    if (c === '\\' && next !== undefined) {
      add(c + next);
      i++;
      continue;
    }
    if (c === '#' && word === '') {
      while (i + 1 < script.length && script[i + 1] !== '\n') i++;
      continue;
    }
    if (c === '\n') {
      endCommand('\n');
      // Here-documents opened on this line: their bodies are not commands.
      while (heredocs.length > 0) {
        const { delimiter, strip } = /** @type {{ delimiter: string | undefined, strip: boolean }} */ (
          heredocs.shift()
        );
        while (i + 1 < script.length) {
          const end = script.indexOf('\n', i + 1);
          const body = script.slice(i + 1, end === -1 ? script.length : end);
          i = end === -1 ? script.length : end;
          if ((strip ? body.replace(/^\t+/, '') : body) === delimiter) break;
        }
      }
      continue;
    }
    if (c === ' ' || c === '\t') {
      endWord();
      continue;
    }
    if (c === "'" || c === '"' || c === '`' || c === '(') {
      add(c);
      nested.push(c);
      continue;
    }
    if (c === '$' && next === '(') {
      add(c + next);
      i++;
      nested.push('(');
      continue;
    }
    if (c === '<' && next === '<' && script[i + 2] !== '<') {
      const heredoc = /^<<(-?)\s*(['"]?)([A-Za-z_][\w-]*)\2/.exec(script.slice(i));
      if (heredoc) {
        heredocs.push({ delimiter: heredoc[3], strip: heredoc[1] === '-' });
        add(heredoc[0]);
        i += heredoc[0].length - 1;
        continue;
      }
    }
    if (c === ';') {
      endCommand(';');
      if (next === ';') i++;
      continue;
    }
    if ((c === '&' || c === '|') && next === c) {
      endCommand(c + c);
      i++;
      continue;
    }
    if (c === '|') {
      endCommand('|');
      if (next === '&') i++;
      continue;
    }
    if (c === '&' && next !== '>' && !/[<>]$/.test(word)) {
      endCommand('&');
      continue;
    }
    add(c);
  }
  endCommand('\n');
  return commands;
}

/**
 * The problems of one doc, parsed as scripts/lib/doc-markdown.mjs does, as [{ line, message }], and
 * the folder each shell block is read to end in (Map block → dir), for the run to compare with.
 * `text(block)` is a block's content (check-docs's `blockText`); `option(block, name)` its info option.
 */
export function workingDirProblems(doc, { text, option, runnable }) {
  const problems = [];
  const ends = new Map();
  if (!doc.blocks.some(runnable)) return { problems, ends, walked: 0 };
  const events = [
    ...doc.prose.flatMap(({ line, text: prose }) => {
      const heading = /^ {0,3}#{1,2}\s+(.*?)(?:\s+#+)?\s*$/.exec(prose);
      return heading ? [{ line, heading: heading[1] }] : [];
    }),
    ...doc.blocks
      .filter((block) => SHELL_BLOCK_LANGS.has(block.lang))
      .map((block) => ({ line: block.line, block })),
  ].sort((a, b) => a.line - b.line);

  // Where a reader's shell is, and the top-level move that took it there when that is not the root.
  /** @type {string | undefined} */
  let dir = ROOT_DIR;
  let previous; // $OLDPWD
  let away;
  const fix = (command) =>
    `Run it in a subshell, \`(${command} && …)\`, or use \`pnpm --filter <package> …\`, so the shell stays where it was`;
  let walked = 0;
  for (const event of [...events, { line: Number.POSITIVE_INFINITY }]) {
    if (!event.block) {
      if (dir !== ROOT_DIR && away) {
        const where =
          event.heading === undefined
            ? 'at the end of the file'
            : `at the end of its section; the next, "${event.heading}" (line ${event.line}), starts from the repository root`;
        problems.push({
          line: away.line,
          message: `\`${away.command}\` leaves a reader's shell in ${showDir(dir)} ${where}. ${fix(away.command)}.`,
        });
      }
      dir = ROOT_DIR;
      away = undefined;
      continue;
    }
    const { block } = event;
    walked++;
    const declared = option(block, 'cwd');
    const start = typeof declared === 'string' ? resolve(ROOT_DIR, declared) : ROOT_DIR;
    if (dir !== start) {
      problems.push(
        away
          ? {
              line: away.line,
              message:
                `\`${away.command}\` leaves a reader's shell in ${showDir(dir)}, but the next block (line ${block.line}) ` +
                `is written for ${showDir(start)}: pasted in order, it runs in the wrong folder. ${fix(away.command)}; ` +
                `or, if that block is meant to run there, mark it \`cwd=${dir}\`.`,
            }
          : {
              line: block.line,
              message: `this block is marked \`cwd=${declared}\`, but the blocks before it leave a reader's shell in ${showDir(dir)}.`,
            },
      );
    }
    const effect = cdEffect(text(block), start, previous);
    previous = effect.previous;
    for (const { line, command } of effect.unreadable) {
      problems.push({
        line: block.line + line,
        message: `\`${command}\`: no one can tell from the text which folder this leaves the shell in. ${fix(command)}.`,
      });
    }
    ends.set(block, effect.end);
    // After an unreadable move (reported above) the walk goes on from where the block started.
    dir = effect.end ?? start;
    const last = effect.moves.at(-1);
    if (dir === ROOT_DIR) away = undefined;
    else if (last && effect.end !== undefined) away = { line: block.line + last.line, command: last.command };
  }
  return { problems, ends, walked };
}
