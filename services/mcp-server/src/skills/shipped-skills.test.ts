/**
 * The skills this package ships, in `skills/`, stay true: each loads without a warning, stays small
 * enough for a model to read in one go, and every file, `pnpm` script and tool it names exists. A
 * skill that tells a model to run a command that is gone is worse than none. Partner: `catalogue.ts`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tools } from '../tools/index.js';
import { createWorkshopSkills, DEFAULT_SKILLS_DIR } from './catalogue.js';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
/** The agent hands a skill file to the model whole; its result budget is 16,000 characters by default. */
const MAX_FILE_CHARS = 8_000;
/** The example a skill may use for a tool that does not exist yet: `pnpm new-tool echo_text` makes it. */
const EXAMPLE_TOOLS = new Set(['echo_text']);
const EXAMPLE_FILE = /\/echo-text(\.test)?\.ts$/;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return markdownFiles(full);
    return name.endsWith('.md') ? [full] : [];
  });
}

/** The text between backticks, and the lines of fenced blocks. */
function codeSpans(text: string): string[] {
  const fenced = [...text.matchAll(/```\w*\n([\s\S]*?)```/g)].flatMap((match) => match[1]?.split('\n') ?? []);
  const inline = [...text.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map(
    (match) => match[1] ?? '',
  );
  return [...fenced, ...inline];
}

const files = markdownFiles(DEFAULT_SKILLS_DIR).map((file) => ({
  name: path.relative(DEFAULT_SKILLS_DIR, file),
  text: readFileSync(file, 'utf8'),
}));
const rootScripts = Object.keys(
  (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts,
);
const toolNames = new Set(tools.map((tool) => tool.name));

describe('the shipped skills', () => {
  it('load without a warning', async () => {
    const warnings: string[] = [];
    const skills = createWorkshopSkills({
      onWarning: ({ path: where, message }) => warnings.push(`${where}: ${message}`),
    });
    await skills.load();
    expect(warnings).toEqual([]);
    expect(files.filter((file) => file.name.endsWith('SKILL.md')).length).toBeGreaterThanOrEqual(2);
  });

  it.each(files)('$name is small enough to read whole', ({ text }) => {
    expect(text.length).toBeLessThanOrEqual(MAX_FILE_CHARS);
  });

  it.each(files)('$name names only files of the repository that exist', ({ text }) => {
    const paths = codeSpans(text)
      .filter((span) => /^(services|packages|dev|doc|adr|scripts)\/[\w./-]+$/.test(span))
      .filter((span) => !EXAMPLE_FILE.test(span));
    for (const named of paths)
      expect(statSync(path.join(REPO, named), { throwIfNoEntry: false }), named).toBeDefined();
  });

  it.each(files)('$name runs only root scripts of pnpm', ({ text }) => {
    const scripts = codeSpans(text).flatMap((span) =>
      [...span.matchAll(/\bpnpm ([a-z][\w:-]*)/g)].map((m) => m[1]),
    );
    for (const script of scripts) expect(rootScripts, `pnpm ${script}`).toContain(script);
  });

  it.each(files)('$name names only tools the server has', ({ text }) => {
    const named = codeSpans(text).flatMap((span) => span.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []);
    const unknown = named.filter((name) => !toolNames.has(name) && !EXAMPLE_TOOLS.has(name));
    expect(unknown).toEqual([]);
  });
});
