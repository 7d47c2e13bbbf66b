import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SERVER_NAME,
  defaultServerSpecs,
  describeTarget,
  loadServersConfig,
  parseServersConfig,
  ServersConfigError,
} from './config.js';

const SOURCE = 'servers.json';

/** Runs `parseServersConfig` and returns the error it throws. */
function parseError(json: unknown): ServersConfigError {
  try {
    parseServersConfig(json, SOURCE);
  } catch (error) {
    expect(error).toBeInstanceOf(ServersConfigError);
    return error as ServersConfigError;
  }
  throw new Error('expected parseServersConfig to throw');
}

describe('parseServersConfig', () => {
  it('reads the Claude Desktop format with stdio and HTTP servers', () => {
    const specs = parseServersConfig(
      {
        mcpServers: {
          workshop: { command: 'node', args: ['dist/index.js', '--stdio'], env: { DATA_DIR: '/tmp/x' } },
          remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
          bare: { command: 'mcp-server-time' },
        },
      },
      SOURCE,
    );
    expect(specs).toEqual([
      {
        transport: 'stdio',
        name: 'workshop',
        command: 'node',
        args: ['dist/index.js', '--stdio'],
        env: { DATA_DIR: '/tmp/x' },
      },
      {
        transport: 'http',
        name: 'remote',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer abc' },
      },
      { transport: 'stdio', name: 'bare', command: 'mcp-server-time', args: [] },
    ]);
  });

  it('reads the VS Code format with "servers" and "type"', () => {
    const specs = parseServersConfig(
      {
        servers: {
          time: { type: 'stdio', command: 'uvx', args: ['mcp-server-time'], cwd: '/srv' },
          workshop: { type: 'http', url: 'http://127.0.0.1:3000/mcp' },
        },
        inputs: [],
      },
      SOURCE,
    );
    expect(specs).toEqual([
      { transport: 'stdio', name: 'time', command: 'uvx', args: ['mcp-server-time'], cwd: '/srv' },
      { transport: 'http', name: 'workshop', url: 'http://127.0.0.1:3000/mcp' },
    ]);
  });

  it('names the file and the entry when an entry has neither command nor url', () => {
    const error = parseError({ mcpServers: { broken: { args: ['x'] } } });
    expect(error.message).toBe(
      'servers.json: server "broken": needs "command" (a local server over stdio) or "url" (a server over HTTP)',
    );
    expect(error.source).toBe(SOURCE);
    expect(error.entry).toBe('broken');
  });

  it('explains each bad field of an entry', () => {
    expect(parseError({ mcpServers: { web: { url: 'ftp://example.com' } } }).message).toBe(
      'servers.json: server "web": "url" must be an http:// or https:// URL',
    );
    expect(parseError({ mcpServers: { local: { command: 'node', env: { PORT: 3000 } } } }).message).toBe(
      'servers.json: server "local": "env.PORT" must be a string',
    );
    expect(parseError({ mcpServers: { local: { command: 'node', args: 'server.js' } } }).message).toMatch(
      /^servers\.json: server "local": "args" /,
    );
  });

  it('rejects unsupported types and contradictory entries', () => {
    expect(parseError({ servers: { old: { type: 'sse', url: 'http://x/sse' } } }).message).toBe(
      'servers.json: server "old": "type" "sse" is not supported; use "http" (Streamable HTTP) or "stdio"',
    );
    expect(parseError({ servers: { both: { command: 'node', url: 'http://x/mcp' } } }).message).toContain(
      'has both "url" and "command"',
    );
    expect(parseError({ servers: { odd: { type: 'http', command: 'node' } } }).message).toContain(
      '"type": "http" needs a "url"',
    );
  });

  it('rejects server names that cannot be part of a tool name', () => {
    const error = parseError({ mcpServers: { 'my server': { command: 'node' } } });
    expect(error.message).toContain('server "my server": rename it using only letters, digits');
    expect(error.entry).toBe('my server');
  });

  it('rejects files without a servers object, with both keys, or with no servers', () => {
    expect(parseError([]).message).toContain('expected a JSON object');
    expect(parseError({ tools: {} }).message).toContain('has no "mcpServers" object');
    expect(parseError({ mcpServers: {}, servers: {} }).message).toContain('keep one of them');
    expect(parseError({ mcpServers: {} }).message).toBe('servers.json: "mcpServers" lists no servers');
    expect(parseError({ mcpServers: { a: 'node' } }).message).toContain('server "a": expected an object');
  });
});

describe('loadServersConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads and parses a file', () => {
    const path = join(dir, 'ok.json');
    writeFileSync(path, JSON.stringify({ mcpServers: { workshop: { url: 'http://127.0.0.1:3000/mcp' } } }));
    expect(loadServersConfig(path)).toEqual([
      { transport: 'http', name: 'workshop', url: 'http://127.0.0.1:3000/mcp' },
    ]);
  });

  it('names the file when it is missing or not JSON', () => {
    const missing = join(dir, 'missing.json');
    expect(() => loadServersConfig(missing)).toThrow(
      `Cannot read the MCP servers config ${missing}: file not found`,
    );
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "mcpServers": { }, }');
    expect(() => loadServersConfig(broken)).toThrow(new RegExp(`^${broken}: not valid JSON`));
  });

  it('names the file in entry errors', () => {
    const path = join(dir, 'bad-entry.json');
    writeFileSync(path, JSON.stringify({ mcpServers: { x: {} } }));
    expect(() => loadServersConfig(path)).toThrow(`${path}: server "x": needs "command"`);
  });
});

describe('defaultServerSpecs', () => {
  it('uses one HTTP server named workshop when there is no config file', () => {
    const [spec] = defaultServerSpecs('http://127.0.0.1:3000/mcp');
    expect(spec).toMatchObject({
      transport: 'http',
      name: DEFAULT_SERVER_NAME,
      url: 'http://127.0.0.1:3000/mcp',
    });
  });
});

describe('describeTarget', () => {
  it('shows the URL, or the command line with awkward arguments quoted', () => {
    expect(describeTarget({ transport: 'http', name: 'a', url: 'http://h/mcp' })).toBe('http://h/mcp');
    expect(
      describeTarget({ transport: 'stdio', name: 'a', command: 'node', args: ['my server.js', '--stdio'] }),
    ).toBe('node "my server.js" --stdio');
  });
});

describe('per-server credentials', () => {
  const parse = (entry: unknown) => parseServersConfig({ mcpServers: { secure: entry } }, 'servers.json');
  const oauth = { clientId: 'workshop-agent', clientSecret: 's3cret-value', issuer: 'http://127.0.0.1:3003' };

  it('reads client credentials for OAuth sign-in, with an optional scope', () => {
    expect(parse({ url: 'http://127.0.0.1:3000/mcp', oauth: { ...oauth, scope: 'tasks:read' } })).toEqual([
      {
        transport: 'http',
        name: 'secure',
        url: 'http://127.0.0.1:3000/mcp',
        oauth: { ...oauth, scope: 'tasks:read' },
      },
    ]);
  });

  it('refuses OAuth together with an Authorization header, and incomplete or unknown OAuth fields', () => {
    expect(() => parse({ url: 'http://h/mcp', oauth, headers: { authorization: 'Bearer key' } })).toThrow(
      'servers.json: server "secure": has both "oauth" and an Authorization header; keep one',
    );
    expect(() => parse({ url: 'http://h/mcp', oauth: { clientId: 'a', clientSecret: 'b' } })).toThrow(
      /"oauth.issuer"/,
    );
    expect(() => parse({ url: 'http://h/mcp', oauth: { ...oauth, issuer: 'ftp://x' } })).toThrow(
      /"oauth.issuer"/,
    );
    expect(() => parse({ url: 'http://h/mcp', oauth: { ...oauth, password: 'x' } })).toThrow(/password/);
    expect(() => parse({ url: 'http://h/mcp', oauth: { clientSecret: 's', issuer: 'http://a' } })).toThrow(
      /"oauth.clientId" is required with clientSecret/,
    );
  });

  it('lets a person sign in without a client id, for an authorization server that registers clients', () => {
    expect(parse({ url: 'http://h/mcp', oauth: { issuer: 'http://a' } })[0]).toMatchObject({
      oauth: { issuer: 'http://a' },
    });
  });

  it('never quotes a secret in an error', () => {
    for (const clientSecret of [42, '', ['s3cret-value']]) {
      const error = (() => {
        try {
          parse({ url: 'http://h/mcp', oauth: { ...oauth, clientSecret } });
        } catch (caught) {
          return caught as Error;
        }
        return undefined;
      })();
      expect(error?.message).toMatch(/"oauth.clientSecret"/);
      expect(error?.message).not.toContain('s3cret-value');
    }
  });

  it('gives the default server the credentials from the environment', () => {
    expect(defaultServerSpecs('http://127.0.0.1:3000/mcp', oauth)[0]).toMatchObject({ oauth });
  });
});
