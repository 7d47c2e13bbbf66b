/**
 * The example client configurations in examples/clients/ (and the repository's own .vscode/mcp.json),
 * taken at their word: every stdio entry is started exactly as its client would start it (its
 * command and args, placeholders replaced by this clone's path) and must answer tools/list through
 * the official client; every HTTP entry must point at the server's default address.
 * Needs `dist/` (turbo builds it before `test`); doc/clients.md explains each file.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRunEnv } from '@mcp-workshop/mcp-host/run';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { parse as parseToml } from 'smol-toml';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../src/tools/index.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRY = join(REPO_ROOT, 'services/mcp-server/dist/index.js');

/** The placeholders the example files use for "this clone", per client. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's variable, meant literally.
const PLACEHOLDERS = ['<ABSOLUTE path>', '${workspaceFolder}'];

interface ServerEntry {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
}

interface ConfigFile {
  /** Path from the repository root. */
  file: string;
  /** The key under which the client keeps its servers. */
  serversKey: 'mcpServers' | 'servers' | 'mcp_servers';
  format: 'json' | 'toml';
  /** Whether stdio entries must carry an explicit `type: "stdio"`. */
  typed: boolean;
}

const CONFIG_FILES: ConfigFile[] = [
  {
    file: 'examples/clients/claude_desktop_config.json',
    serversKey: 'mcpServers',
    format: 'json',
    typed: false,
  },
  { file: 'examples/clients/vscode-mcp.json', serversKey: 'servers', format: 'json', typed: true },
  { file: '.vscode/mcp.json', serversKey: 'servers', format: 'json', typed: true },
  { file: 'examples/clients/codex-config.toml', serversKey: 'mcp_servers', format: 'toml', typed: false },
  { file: 'examples/clients/inspector-config.json', serversKey: 'mcpServers', format: 'json', typed: true },
];

function readConfig(config: ConfigFile): Record<string, ServerEntry> {
  const text = readFileSync(join(REPO_ROOT, config.file), 'utf8');
  const parsed = (config.format === 'toml' ? parseToml(text) : JSON.parse(text)) as Record<string, unknown>;
  const servers = parsed[config.serversKey];
  if (typeof servers !== 'object' || servers === null)
    throw new Error(`${config.file} has no "${config.serversKey}" table`);
  return servers as Record<string, ServerEntry>;
}

/** Replaces every placeholder for "the absolute path of this clone" with the real one. */
function resolvePlaceholders(value: string): string {
  let resolved = value;
  for (const placeholder of PLACEHOLDERS)
    resolved = resolved.split(placeholder).join(REPO_ROOT.replace(/\/$/, ''));
  return resolved;
}

const entries = CONFIG_FILES.flatMap((config) =>
  Object.entries(readConfig(config)).map(([name, entry]) => ({ config, name, entry })),
);
const stdioEntries = entries.filter(({ entry }) => entry.command !== undefined);
const httpEntries = entries.filter(({ entry }) => entry.url !== undefined);

/** The address the server listens on when HOST and PORT are left alone. */
const defaults = loadRunEnv({}, {});
const DEFAULT_URL = `http://${defaults.HOST}:${defaults.PORT}/mcp`;

let dataDir: string | undefined;

beforeAll(() => {
  if (!existsSync(ENTRY))
    throw new Error(`${ENTRY} is missing: run "pnpm build" (pnpm test does it for you).`);
});

afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

describe('the example client configurations', () => {
  it('each file has a stdio entry, and every entry is either stdio or HTTP', () => {
    for (const config of CONFIG_FILES) {
      const servers = Object.values(readConfig(config));
      expect(
        servers.some((entry) => entry.command !== undefined),
        `${config.file} has no stdio entry`,
      ).toBe(true);
    }
    for (const { config, name, entry } of entries) {
      const kind = entry.command !== undefined ? 'stdio' : entry.url !== undefined ? 'http' : undefined;
      expect(kind, `${config.file}: ${name} has neither command nor url`).toBeDefined();
      expect(entry.command !== undefined && entry.url !== undefined, `${config.file}: ${name}`).toBe(false);
      if (config.typed) expect(entry.type, `${config.file}: ${name}`).toBe(kind);
    }
  });

  it('.vscode/mcp.json is the same as examples/clients/vscode-mcp.json', () => {
    const read = (file: string) => JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8')) as unknown;
    expect(read('.vscode/mcp.json')).toEqual(read('examples/clients/vscode-mcp.json'));
  });

  it.each(httpEntries.map(({ config, name, entry }) => [`${config.file}: ${name}`, entry.url]))(
    '%s points at the default address',
    (_label, url) => {
      expect(url).toBe(DEFAULT_URL);
      expect(url).toBe('http://127.0.0.1:3000/mcp');
    },
  );

  it.each(stdioEntries.map(({ config, name, entry }) => [`${config.file}: ${name}`, entry] as const))(
    '%s starts the server and answers tools/list',
    async (label, entry) => {
      const command = resolvePlaceholders(entry.command ?? '');
      const args = (entry.args ?? []).map(resolvePlaceholders);
      expect(args, `${label}: serve stdio`).toContain('--stdio');
      const script = args.find((arg) => arg.endsWith('index.js'));
      expect(script, `${label}: no script in args`).toBeDefined();
      // Relative paths (the Inspector file) resolve against the working directory: the repo root.
      expect(existsSync(resolve(REPO_ROOT, script ?? '')), `${label}: ${script} does not exist`).toBe(true);

      dataDir = mkdtempSync(join(tmpdir(), 'mcp-client-config-'));
      const transport = new StdioClientTransport({
        command,
        args,
        cwd: REPO_ROOT,
        env: { ...getDefaultEnvironment(), ...entry.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const client = new Client({ name: 'client-configs-test', version: '0' });
      try {
        await client.connect(transport);
      } catch (error) {
        throw new Error(
          `${label}: "${command} ${args.join(' ')}" did not start: ${String(error)}\n${stderr}`,
        );
      }
      try {
        const listed = await client.listTools();
        const names = listed.tools.map((tool) => tool.name);
        expect(names).toContain('get_weather');
        expect(names).toEqual(tools.map((tool) => tool.name));
      } finally {
        await client.close();
      }
    },
  );
});
