/**
 * @module example.test
 * The README's example is real: `examples/echo.mjs` is byte for byte the README's code block, and
 * run with `node` against the BUILT package (`pnpm --filter @mcp-workshop/mcp-host build` first)
 * it answers `echo` over Streamable HTTP and over stdio with the official client, and its stdio
 * process exits when stdin closes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../examples/echo.mjs', import.meta.url));
/** Starting node and binding a port takes well under a second; 10 s means it will not come. */
const START_TIMEOUT_MS = 10_000;
/** How long a stdio server may take to exit once its stdin is closed. */
const EXIT_TIMEOUT_MS = 5_000;

function readmeExample(): string | undefined {
  const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
  return /<!-- example: examples\/echo\.mjs -->\n```js\n([\s\S]*?)```\n/.exec(readme)?.[1];
}

/** Resolves with what `child` did first: exited (with its code), or still running after `ms`. */
function exitWithin(child: ChildProcess, ms: number): Promise<number | null | 'still running'> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still running'), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe('the README example', () => {
  it('is the very text of examples/echo.mjs', () => {
    expect(readmeExample()).toBe(readFileSync(EXAMPLE, 'utf8'));
  });

  it('needs the package built', () => {
    expect(
      existsSync(`${PACKAGE_DIR}/dist/index.js`),
      'run `pnpm --filter @mcp-workshop/mcp-host build`',
    ).toBe(true);
  });
});

describe('examples/echo.mjs over Streamable HTTP', () => {
  let child: ChildProcess;
  let mcpUrl: string;
  beforeAll(async () => {
    child = spawn(process.execPath, [EXAMPLE, 'http', '0'], {
      cwd: PACKAGE_DIR,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    mcpUrl = await new Promise<string>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(
        () => reject(new Error(`no URL within ${START_TIMEOUT_MS} ms: ${seen}`)),
        START_TIMEOUT_MS,
      );
      child.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const url = /echo serves (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen)?.[1];
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      });
    });
  });
  afterAll(async () => {
    child.kill();
    await exitWithin(child, EXIT_TIMEOUT_MS);
  });

  it('binds 127.0.0.1 on the port it was given (0: one the OS picks) and answers echo', async () => {
    const client = new Client({ name: 'example-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hello, host' } });
      expect(result.content).toEqual([{ type: 'text', text: 'hello, host' }]);
      const refused = await client.callTool({ name: 'echo', arguments: { text: 42 } });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('examples/echo.mjs over stdio', () => {
  it('answers initialize and echo with the official client', async () => {
    const client = new Client({ name: 'example-test', version: '0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [EXAMPLE, 'stdio'], cwd: PACKAGE_DIR }),
    );
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'echo', version: '1.0.0' });
      const result = await client.callTool({ name: 'echo', arguments: { text: 'over stdio' } });
      expect(result.content).toEqual([{ type: 'text', text: 'over stdio' }]);
    } finally {
      await client.close();
    }
  });

  it('writes only protocol to stdout, and exits when stdin closes', async () => {
    const child = spawn(process.execPath, [EXAMPLE, 'stdio'], {
      cwd: PACKAGE_DIR,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    };
    child.stdin?.write(`${JSON.stringify(initialize)}\n`);
    // Bounded wait for the answer: 50 × 100 ms.
    for (let i = 0; i < 50 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 100));
    child.stdin?.end();
    const code = await exitWithin(child, EXIT_TIMEOUT_MS);
    if (code === 'still running') child.kill('SIGKILL');
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ id: 1, result: { serverInfo: { name: 'echo' } } });
  });
});
