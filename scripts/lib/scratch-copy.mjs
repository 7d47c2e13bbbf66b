// @ts-check
/**
 * A throwaway copy of the repository, for scripts/check-docs.mjs blocks marked `scratch`: commands
 * that write files (`pnpm new-tool echo_text`) run there, so the working tree stays untouched.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Copies every file git tracks or would track (`git ls-files -co --exclude-standard`, so work in
 * progress is included) into a new temp folder, and links each node_modules folder of the root
 * and of the workspace packages (copying them would take minutes). `dist` and `.turbo` are not
 * there: anything that needs a build builds in the copy. Returns the folder; `removeScratchCopy` ends it.
 */
export function makeScratchCopy(root) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-docs-'));
  try {
    fill(root, dir);
  } catch (err) {
    removeScratchCopy(dir);
    throw err;
  }
  return dir;
}

export function removeScratchCopy(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
}

function fill(root, dir) {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
  });
  for (const file of new Set(files.split('\0').filter(Boolean))) {
    if (file.split('/').includes('node_modules')) continue; // a symlinked one is a "file" to git; linked below
    const from = path.join(root, file);
    const to = path.join(dir, file);
    let stat;
    try {
      stat = fs.lstatSync(from);
    } catch {
      continue; // deleted but still tracked
    }
    if (stat.isDirectory()) continue;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.cpSync(from, to, { preserveTimestamps: true });
  }
  for (const modules of nodeModulesFolders(root)) {
    const link = path.join(dir, path.relative(root, modules));
    fs.mkdirSync(path.dirname(link), { recursive: true });
    if (!fs.existsSync(link)) fs.symlinkSync(modules, link, 'dir');
  }
}

/** node_modules at the root and one or two levels down (exercises/, services/<name>/, …). */
function nodeModulesFolders(root) {
  const found = [];
  const visit = (dir, depth) => {
    const modules = path.join(dir, 'node_modules');
    if (fs.existsSync(modules)) found.push(modules);
    if (depth === 0) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      visit(path.join(dir, entry.name), depth - 1);
    }
  };
  visit(root, 2);
  return found;
}
