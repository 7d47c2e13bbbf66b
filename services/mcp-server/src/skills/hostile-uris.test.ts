/**
 * No `skill://` URI reads anything but a skill's own files. A temporary folder holds a secret
 * beside the skills root, a sibling folder whose name starts like the root's, and a skill with a
 * symlink to the secret; every spelling below (`..`, percent-encoding, backslashes, odd case, an
 * absolute path, another scheme) is sent as raw JSON-RPC to `resources/read`,
 * `resources/directory/read` and `skills/get`, and each must answer -32602 without the secret.
 * Partner: `catalogue.ts`.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectRaw, type RawRpc } from '@mcp-workshop/mcp-host/in-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDeps } from '../test-support/in-memory.js';
import { createMcpServer } from '../test-support/server.js';
import { createWorkshopSkills } from './catalogue.js';

const SECRET = 'the-secret-no-skill-may-show';
const manifest = (name: string) => `---\nname: ${name}\ndescription: A test skill.\n---\n\n# ${name}\n`;

let root: string;
let rpc: RawRpc;
let warnings: string[];

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'skills-hostile-'));
  const skills = path.join(root, 'skills');
  writeFileSync(path.join(root, 'secret.txt'), SECRET);
  mkdirSync(path.join(root, 'skills-evil', 'evil'), { recursive: true });
  writeFileSync(path.join(root, 'skills-evil', 'evil', 'SKILL.md'), `${manifest('evil')}${SECRET}\n`);
  mkdirSync(path.join(skills, 'demo', 'references'), { recursive: true });
  writeFileSync(path.join(skills, 'demo', 'SKILL.md'), manifest('demo'));
  writeFileSync(path.join(skills, 'demo', 'references', 'guide.md'), '# Guide\n');
  mkdirSync(path.join(skills, 'linked'));
  writeFileSync(path.join(skills, 'linked', 'SKILL.md'), manifest('linked'));
  symlinkSync(path.join(root, 'secret.txt'), path.join(skills, 'linked', 'leak.txt'));

  warnings = [];
  const workshopSkills = createWorkshopSkills({
    dir: skills,
    onWarning: ({ path: where, message }) => warnings.push(`${where}: ${message}`),
  });
  await workshopSkills.load();
  rpc = await connectRaw(createMcpServer(testDeps(), { skills: workshopSkills }));
});

afterAll(async () => {
  await rpc?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The JSON-RPC error code of a request that must fail; its text must not hold the secret either. */
async function refusal(method: string, uri: string): Promise<number | string> {
  try {
    const result = await rpc.request(method, { uri });
    return `answered ${JSON.stringify(result).slice(0, 200)}`;
  } catch (error) {
    const text = String(error);
    expect(text).not.toContain(SECRET);
    return Number(/"code":(-?\d+)/.exec(text)?.[1]);
  }
}

const inRoot = () => path.join(root, 'secret.txt');
const HOSTILE: Array<[string, () => string]> = [
  ['dot segments', () => 'skill://demo/../../secret.txt'],
  ['dot segments from a subfolder', () => 'skill://demo/references/../../../secret.txt'],
  ['dot segments in the authority', () => 'skill://../secret.txt'],
  ['percent-encoded dots', () => 'skill://demo/%2e%2e/%2E%2E/secret.txt'],
  ['percent-encoded slashes', () => 'skill://demo/..%2F..%2Fsecret.txt'],
  ['an encoded authority', () => 'skill://%2e%2e/secret.txt'],
  ['backslashes', () => 'skill://demo/..\\..\\secret.txt'],
  ['double encoding', () => 'skill://demo/%252e%252e/%252e%252e/secret.txt'],
  ['a NUL byte', () => 'skill://demo/SKILL.md%00/../../secret.txt'],
  ['an upper-case scheme', () => 'SKILL://demo/../../secret.txt'],
  ['an absolute path', () => `skill://${inRoot()}`],
  ['an empty authority', () => `skill:///${inRoot()}`],
  ['another scheme', () => `file://${inRoot()}`],
  ['the sibling folder', () => 'skill://demo/../../skills-evil/evil/SKILL.md'],
  ['a symlink inside a skill', () => 'skill://linked/leak.txt'],
];

describe('hostile skill URIs', () => {
  it('skipped the skill that holds a symlink, and said so', () => {
    expect(warnings.join('\n')).toMatch(/linked\/leak\.txt: symlinks .* not followed/);
  });

  it.each(HOSTILE)('resources/read refuses %s with -32602', async (_label, uri) => {
    expect(await refusal('resources/read', uri())).toBe(-32602);
  });

  it.each(HOSTILE)('resources/directory/read refuses %s with -32602', async (_label, uri) => {
    expect(await refusal('resources/directory/read', uri())).toBe(-32602);
  });

  it.each(HOSTILE)('skills/get refuses %s with -32602', async (_label, uri) => {
    expect(await refusal('skills/get', uri())).toBe(-32602);
  });

  it('refuses the root, a skipped skill and a trailing-slash spelling as directories, with -32602', async () => {
    for (const uri of ['skill://', 'skill:///', 'skill://linked', 'skill://demo/references/..']) {
      expect(await refusal('resources/directory/read', uri), uri).toBe(-32602);
    }
  });

  it('reads `..` at the top of a skill as the skill itself, never as what is above it', async () => {
    // The URL parser stops dot segments at the authority: both are skill://demo, the skill's own folder.
    for (const uri of ['skill://demo/..', 'skill://demo/references/../..']) {
      const { resources } = await rpc.request('resources/directory/read', { uri });
      expect(
        (resources as Array<{ uri: string }>).map((child) => child.uri),
        uri,
      ).toEqual(['skill://demo/SKILL.md', 'skill://demo/references']);
    }
  });

  it('still serves the skill files themselves', async () => {
    const read = await rpc.request('resources/read', { uri: 'skill://demo/references/guide.md' });
    expect(read.contents).toEqual([
      { uri: 'skill://demo/references/guide.md', mimeType: 'text/markdown', text: '# Guide\n' },
    ]);
  });
});
