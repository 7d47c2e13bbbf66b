/**
 * The skills over the wire, as a 2026-07-28 client sees them: the real server on HTTP with the
 * package's own `skills/` folder (what `pnpm conformance` checks too), read with the official
 * client's `SkillsClient`, which verifies every file against its digest and size. Then what
 * `load()` does with a missing folder and a broken skill. Partner: `catalogue.ts`.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectRaw } from '@mcp-workshop/mcp-host/in-process';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SKILLS_EXTENSION_ID, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { SkillWarning } from '@modelcontextprotocol/server/ext/skills';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/http.js';
import { testDeps } from '../test-support/in-memory.js';
import { createMcpServer } from '../test-support/server.js';
import { createWorkshopSkills, DEFAULT_SKILLS_DIR, SKILLS_CACHE_HINT } from './catalogue.js';

const ADD_A_TOOL = 'skill://add-a-tool/SKILL.md';
/** The skills this package ships. A participant adds others beside them (module 6). */
const SHIPPED_SKILLS = ['add-a-tool', 'manage-tasks'];
const manifestUri = (name: string) => `skill://${name}/SKILL.md`;

/** The folders of `skills/` that hold a SKILL.md, by name: what the server should list. */
function skillFolders(): string[] {
  return readdirSync(DEFAULT_SKILLS_DIR, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(DEFAULT_SKILLS_DIR, entry.name, 'SKILL.md')),
    )
    .map((entry) => entry.name)
    .sort();
}

/** The JSON-RPC code of a rejected request, or undefined when it did not fail that way. */
async function codeOf(request: Promise<unknown>): Promise<number | undefined> {
  return request.then(
    () => undefined,
    (error: unknown) => (error instanceof ProtocolError ? error.code : undefined),
  );
}

describe('the skills extension over HTTP (2026-07-28)', () => {
  let srv: TestServer;
  let client: Client;
  let skills: SkillsClient;
  beforeAll(async () => {
    srv = await startTestServer();
    client = new Client({ name: 'skills-test', version: '0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl)));
    expect(client.getProtocolEra()).toBe('modern');
    skills = new SkillsClient(client);
  });
  afterAll(async () => {
    await client.close();
    await srv.close();
  });

  it('declares the extension with directoryRead, beside the resources capability', () => {
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.extensions?.[SKILLS_EXTENSION_ID]).toEqual({ directoryRead: true });
    expect(capabilities?.resources).toBeDefined();
    expect([skills.supported, skills.directoryRead]).toEqual([true, true]);
  });

  it('lists each skill of the folder, the shipped ones among them, with its frontmatter, each file with a sha256 digest and size, and the cache hint', async () => {
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    const uris = listing.skills.map((skill) => skill.uri);
    expect(uris).toEqual(expect.arrayContaining(SHIPPED_SKILLS.map(manifestUri)));
    expect([...uris].sort()).toEqual(skillFolders().map(manifestUri));
    expect([listing.ttlMs, listing.cacheScope]).toEqual([
      SKILLS_CACHE_HINT.ttlMs,
      SKILLS_CACHE_HINT.cacheScope,
    ]);
    for (const skill of listing.skills) {
      expect(manifestUri(skill.frontmatter.name)).toBe(skill.uri);
      expect(skill.frontmatter.description, skill.uri).toMatch(/\S/);
      const files = skill.resources === 'dynamic' ? [] : skill.resources;
      expect(files.map((file) => file.uri)).toContain(skill.uri);
      for (const file of files) {
        expect(file.digest, file.uri).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(file.size, file.uri).toBeGreaterThan(0);
      }
    }
    const addATool = listing.skills.find((skill) => skill.uri === ADD_A_TOOL);
    const files = addATool?.resources === 'dynamic' ? [] : (addATool?.resources ?? []);
    expect(files.map((file) => file.uri)).toEqual([ADD_A_TOOL, 'skill://add-a-tool/references/checklist.md']);
  });

  it('gets one skill by its SKILL.md URI, with the cache hint', async () => {
    const got = await skills.get(ADD_A_TOOL);
    expect(got.skill.uri).toBe(ADD_A_TOOL);
    expect(got.skill.frontmatter.description).toMatch(/pnpm new-tool/);
    expect([got.ttlMs, got.cacheScope]).toEqual([SKILLS_CACHE_HINT.ttlMs, SKILLS_CACHE_HINT.cacheScope]);
  });

  it('reads SKILL.md as markdown that matches its entry, and a file of its references folder', async () => {
    const { skill } = await skills.get(ADD_A_TOOL);
    const manifest = await skills.read(skill);
    expect([manifest.verified, manifest.mimeType]).toEqual([true, 'text/markdown']);
    expect(manifest.frontmatter).toEqual(skill.frontmatter);
    expect(manifest.body?.trimStart()).toMatch(/^# Add a tool/);
    const checklist = await skills.read(skill, 'references/checklist.md');
    expect(checklist.verified).toBe(true);
    expect(checklist.text).toMatch(/^# Checklist for a new tool/);
  });

  it('lists each SKILL.md in resources/list under its frontmatter name and description', async () => {
    const { resources } = await client.listResources();
    const manifest = resources.find((resource) => resource.uri === ADD_A_TOOL);
    const { skill } = await skills.get(ADD_A_TOOL);
    expect(manifest).toMatchObject({
      name: skill.frontmatter.name,
      description: skill.frontmatter.description,
      mimeType: 'text/markdown',
    });
  });

  it('reads a skill directory: its files, and its subfolder as a directory', async () => {
    const root = await skills.readDirectory('skill://add-a-tool');
    expect(root.resources.map(({ uri, mimeType }) => ({ uri, mimeType }))).toEqual([
      { uri: ADD_A_TOOL, mimeType: 'text/markdown' },
      { uri: 'skill://add-a-tool/references', mimeType: 'inode/directory' },
    ]);
    const references = await skills.readDirectory('skill://add-a-tool/references');
    expect(references.resources.map((child) => child.name)).toEqual(['checklist.md']);
  });

  it('answers -32602 for a skill, a file or a directory it does not serve', async () => {
    const unknown = 'skill://no-such-skill/SKILL.md';
    expect(await codeOf(skills.get(unknown))).toBe(-32602);
    expect(await codeOf(client.readResource({ uri: unknown }))).toBe(-32602);
    expect(await codeOf(skills.readDirectory('skill://no-such-skill'))).toBe(-32602);
    // A file is not a directory.
    expect(await codeOf(skills.readDirectory(ADD_A_TOOL))).toBe(-32602);
  });
});

describe('createWorkshopSkills', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Loads `dir` and lists what a server built afterwards declares and serves. */
  async function served(dir: string) {
    const warnings: SkillWarning[] = [];
    const workshopSkills = createWorkshopSkills({ dir, onWarning: (warning) => warnings.push(warning) });
    await workshopSkills.load();
    const rpc = await connectRaw(createMcpServer(testDeps(), { skills: workshopSkills }));
    try {
      const init = await rpc.request('resources/templates/list');
      const templates = (init.resourceTemplates as Array<{ uriTemplate: string }>).map((t) => t.uriTemplate);
      const listing = templates.includes('skill://{+path}')
        ? ((await rpc.request('skills/list')).skills as Array<{ uri: string }>).map((skill) => skill.uri)
        : undefined;
      return { listing, warnings };
    } finally {
      await rpc.close();
    }
  }

  it('serves no skills, and says why, when the folder is missing', async () => {
    root = mkdtempSync(path.join(tmpdir(), 'skills-missing-'));
    const { listing, warnings } = await served(path.join(root, 'nowhere'));
    expect(listing).toBeUndefined();
    expect(warnings[0]?.message).toMatch(/no skills folder/);
  });

  it('leaves out a skill whose name is not its folder, and serves the rest', async () => {
    root = mkdtempSync(path.join(tmpdir(), 'skills-broken-'));
    const skills: Array<[folder: string, name: string]> = [
      ['good-one', 'good-one'],
      ['misnamed', 'another-name'],
    ];
    for (const [folder, name] of skills) {
      mkdirSync(path.join(root, folder));
      const manifest = `---\nname: ${name}\ndescription: A test skill.\n---\n\nBody.\n`;
      writeFileSync(path.join(root, folder, 'SKILL.md'), manifest);
    }
    const { listing, warnings } = await served(root);
    expect(listing).toEqual(['skill://good-one/SKILL.md']);
    expect(warnings.map((warning) => warning.path)).toEqual(['misnamed/SKILL.md']);
  });

  it('attaches nothing before load() resolves', async () => {
    root = mkdtempSync(path.join(tmpdir(), 'skills-early-'));
    const workshopSkills = createWorkshopSkills({ onWarning: () => {} });
    const rpc = await connectRaw(createMcpServer(testDeps(), { skills: workshopSkills }));
    try {
      await expect(rpc.request('skills/list')).rejects.toThrow(/-32601/);
    } finally {
      await rpc.close();
    }
  });
});
