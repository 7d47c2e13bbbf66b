// @ts-check
/**
 * Finds absolute paths that exist only on one machine (a home folder, this sandbox's work folder,
 * a mktemp name) in the repository's text files, for `machine-paths.test.mjs`. Such a path in a
 * doc or a test works for its author and misleads everyone else: write a neutral one
 * (`/path/to/mcp-workshop`) or compute it (`fileURLToPath(import.meta.url)`, `os.tmpdir()`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A user name that stands for "yours", as in `/home/you/…` or `C:/Users/you/…`: not a real machine. */
const PLACEHOLDER_USER = /^(?:you|your-?name|user|username|me|\$\{?USER\}?|<[^>]*>|…|\.\.\.)$/i;

/**
 * [what it is, pattern]. A path counts only where one starts: at the start of a line or after a
 * character that cannot be part of a URL's host or of a longer path (so `https://x.org/home/a/`
 * and `src/work/a` are not paths on this machine). Home folders capture the user name, so that
 * placeholder names pass.
 */
const START = String.raw`(?<![\w.~/\\-])`;
/** `/a/b`, built so that this file does not contain the paths it looks for. */
const dir = (...names) => names.map((name) => `/${name}`).join('');
/** Where a folder name ends: a slash, a quote, a bracket, punctuation, a space or the line's end. */
const END = String.raw`(?=[/\\\s"'\`),;:]|$)`;
/**
 * The same for a top folder alone (the work folder, root's home), except at a space or a colon:
 * a regex literal that tests for the words "root is not" starts the same way.
 */
const TOP_END = String.raw`(?=[/\\"'\`),;]|$)`;
const USER_NAME = String.raw`[^/\\\s"'\`),;:]+`;
export const MACHINE_PATH_RULES = [
  ['a home folder (Linux)', new RegExp(`${START}${dir('home')}/(${USER_NAME})${END}`, 'g')],
  ['a home folder (macOS)', new RegExp(`${START}(?:[A-Za-z]:)?${dir('Users')}/(${USER_NAME})${END}`, 'g')],
  ['a home folder (Windows)', new RegExp(String.raw`(?<!\w)[A-Za-z]:\\+Users\\+(${USER_NAME})${END}`, 'g')],
  ["root's home folder", new RegExp(`${START}${dir('root')}${TOP_END}`, 'g')],
  ['a work folder', new RegExp(`${START}${dir('work')}${TOP_END}`, 'g')],
  ['a mktemp or tempfile name', new RegExp(`${START}(?:${dir('private')})?${dir('tmp', 'tmp')}`, 'g')],
  ['a macOS temp folder', new RegExp(`${START}(?:${dir('private')})?${dir('var', 'folders')}${END}`, 'g')],
];

/**
 * Lines where such a path is right, because it is not on anyone's machine. Each names its file, a
 * pattern for the whole line, and why. Keep this short: almost every hit is fixed by a neutral path.
 */
export const ALLOWED = [
  {
    file: 'docker-compose.yml',
    line: /^\s*- ollama:\/root\/\.ollama$/,
    why: "a path inside the ollama container: its image keeps the models in root's home",
  },
];

/** Every machine path in `text`: [{ line (1-based), path (the matched text), rule }]. */
export function findMachinePaths(text) {
  const found = [];
  text.split(/\r?\n/).forEach((content, index) => {
    for (const [rule, pattern] of MACHINE_PATH_RULES) {
      for (const match of content.matchAll(pattern)) {
        if (match[1] !== undefined && PLACEHOLDER_USER.test(match[1])) continue;
        found.push({ line: index + 1, path: match[0], rule, content });
      }
    }
  });
  return found;
}

/** Whether `hit` in `file` (relative to the repository, with `/`) is on the allow-list. */
export function isAllowed(file, hit) {
  return ALLOWED.some((entry) => entry.file === file && entry.line.test(hit.content));
}

/** Files git tracks or would track (`git ls-files -co --exclude-standard`), so work in progress is checked too. */
export function repositoryFiles(root) {
  const out = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return out.split('\0').filter(Boolean);
}

/** Bytes read to decide that a file is binary (a NUL among them), as git does. */
const BINARY_SNIFF_BYTES = 8_000;

/** Every machine path in the repository's text files that the allow-list does not cover: [{ file, line, path, rule }]. */
export function scanRepository(root) {
  const problems = [];
  for (const file of repositoryFiles(root)) {
    let buffer;
    try {
      buffer = fs.readFileSync(path.join(root, file));
    } catch (err) {
      const code = /** @type {NodeJS.ErrnoException} */ (err).code;
      if (code === 'ENOENT' || code === 'EISDIR') continue; // deleted but not yet staged, or a submodule
      throw err;
    }
    if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) continue;
    for (const hit of findMachinePaths(buffer.toString('utf8'))) {
      if (!isAllowed(file, hit)) problems.push({ file, line: hit.line, path: hit.path, rule: hit.rule });
    }
  }
  return problems;
}
