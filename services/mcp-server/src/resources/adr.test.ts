import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectInProcess } from '@mcp-workshop/mcp-host/in-process';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { loadRunEnv } from '@mcp-workshop/mcp-host/run';
import { openTodoStore } from '@mcp-workshop/task-store';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { env } from '../deps.js';
import { registerContext, testDeps } from '../test-support/in-memory.js';
import { DEFAULT_ADR_DIR, listAdrSlugs, MAX_ADR_BYTES, parseSlug, resolveAdrDir } from './adr.js';
import { registerResources } from './index.js';

/** A client on a server whose ADRs come from `adrDir` (the real createMcpServer always uses the repo's). */
async function connectWithAdrDir(adrDir: string, dataDir: string) {
  const todos = openTodoStore({ dataDir, logger: createSilentLogger() });
  const server = new McpServer({ name: 'adr-test', version: '0' });
  const deps = testDeps({ todos });
  registerResources(server, { ...registerContext(deps), env: loadRunEnv(env, {}), pageSize: 50 }, { adrDir });
  const connection = await connectInProcess(server);
  return {
    client: connection.client,
    async close() {
      await connection.close();
      await todos.close();
    },
  };
}

const ALPHA = '# 001. Alpha\n\n- **Status:** accepted (2026-01-01)\n\n## Context\n\nBecause.\n';

describe('parseSlug', () => {
  it('accepts NNN-words in lowercase', () => {
    expect(parseSlug('001-dynamic-tool-discovery')).toBe('001-dynamic-tool-discovery');
    expect(parseSlug('009-official-sdk-v2')).toBe('009-official-sdk-v2');
  });

  it.each([
    '../../etc/passwd',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '001-alpha/../../etc/passwd',
    '001-alpha.md',
    '001-Alpha',
    '1-alpha',
    '001-',
    '001_alpha',
    '001-alpha\u0000',
    '',
    `001-${'a'.repeat(200)}`,
  ])('refuses %j', (slug) => {
    expect(parseSlug(slug)).toBeUndefined();
  });
});

describe('resolveAdrDir', () => {
  it("finds the repository's adr/ folder from the module, with at least one ADR in it", async () => {
    const dir = await resolveAdrDir();
    expect(dir).toBe(fs.realpathSync(DEFAULT_ADR_DIR));
    const slugs = await listAdrSlugs(dir);
    expect(slugs.length).toBeGreaterThan(0);
    for (const slug of slugs) expect(parseSlug(slug)).toBe(slug);
  });

  it('gives undefined for a folder that does not exist, and no ADRs', async () => {
    const dir = await resolveAdrDir(path.join(os.tmpdir(), 'no-such-adr-folder-for-tests'));
    expect(dir).toBeUndefined();
    expect(await listAdrSlugs(dir)).toEqual([]);
  });
});

describe('adr://{slug}', () => {
  let root: string;
  let adrDir: string;
  let conn: Awaited<ReturnType<typeof connectWithAdrDir>>;

  beforeEach(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'adr-resources-'));
    adrDir = path.join(root, 'adr');
    fs.mkdirSync(adrDir);
    fs.writeFileSync(path.join(adrDir, '001-alpha.md'), ALPHA);
    fs.writeFileSync(path.join(adrDir, '002-beta.md'), '# 002. Beta\n\nNo status line.\n');
    fs.writeFileSync(path.join(adrDir, 'README.md'), '# Index\n');
    fs.writeFileSync(path.join(adrDir, '003-notes.txt'), 'not markdown');
    fs.writeFileSync(path.join(root, 'secret.md'), '# TOP-SECRET-CONTENT\n');
    fs.symlinkSync(path.join(root, 'secret.md'), path.join(adrDir, '004-escape.md'));
    fs.writeFileSync(path.join(adrDir, '005-huge.md'), `# 005. Huge\n${'x'.repeat(MAX_ADR_BYTES)}`);
    conn = await connectWithAdrDir(adrDir, root);
  });
  afterEach(async () => {
    await conn.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('lists only NNN-*.md files inside the folder, with titles from their headings', async () => {
    const { resources } = await conn.client.listResources();
    const adrs = resources.filter((resource) => resource.uri.startsWith('adr://'));
    expect(adrs).toEqual([
      {
        uri: 'adr://001-alpha',
        name: 'adr-001-alpha',
        title: 'ADR 001. Alpha',
        description: 'Architecture decision record. Status: accepted (2026-01-01)',
        mimeType: 'text/markdown',
      },
      {
        uri: 'adr://002-beta',
        name: 'adr-002-beta',
        title: 'ADR 002. Beta',
        description: 'Architecture decision record.',
        mimeType: 'text/markdown',
      },
    ]);
  });

  it('reads an ADR as markdown', async () => {
    const { contents } = await conn.client.readResource({ uri: 'adr://001-alpha' });
    expect(contents).toEqual([{ uri: 'adr://001-alpha', mimeType: 'text/markdown', text: ALPHA }]);
  });

  it('completes slugs by prefix', async () => {
    const { completion } = await conn.client.complete({
      ref: { type: 'ref/resource', uri: 'adr://{slug}' },
      argument: { name: 'slug', value: '00' },
    });
    expect(completion.values).toEqual(['001-alpha', '002-beta']);
  });

  it.each([
    'adr://../../etc/passwd',
    'adr://..%2F..%2Fetc%2Fpasswd',
    'adr://%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    'adr://%2E%2E/%2E%2E/etc/passwd',
    'adr://001-alpha/../../secret',
    'adr://001-alpha.md',
    'adr://README',
    'adr://004-escape',
    'adr://005-huge',
    'adr://006-missing',
    'adr:///etc/passwd',
    'adr://',
  ])('refuses %s as not found without reading outside the folder', async (uri) => {
    const error = await conn.client.readResource({ uri }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32602, data: { uri: expect.any(String) } });
    expect(JSON.stringify(error)).not.toMatch(/TOP-SECRET/);
  });

  it('lists no ADRs and answers not found when the folder is missing', async () => {
    fs.rmSync(adrDir, { recursive: true, force: true });
    const { resources } = await conn.client.listResources();
    expect(resources.filter((resource) => resource.uri.startsWith('adr://'))).toEqual([]);
    await expect(conn.client.readResource({ uri: 'adr://001-alpha' })).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'adr://001-alpha' },
    });
    const { resourceTemplates } = await conn.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain('adr://{slug}');
  });
});

describe('adr resources of the real server', () => {
  it("reads one of the repository's own ADRs by its listed URI", async () => {
    const dir = await resolveAdrDir();
    const [slug] = await listAdrSlugs(dir);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adr-real-'));
    const conn = await connectWithAdrDir(DEFAULT_ADR_DIR, dataDir);
    try {
      const { contents } = await conn.client.readResource({ uri: `adr://${slug}` });
      expect((contents[0] as { text: string }).text).toMatch(/^# /);
    } finally {
      await conn.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
