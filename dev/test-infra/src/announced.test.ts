import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  announcedMcpUrl,
  MCP_LISTENING_MESSAGE,
  startAnnouncingServer,
  waitForAnnouncedMcpUrl,
} from './announced.js';

const line = (record: Record<string, unknown>) => `${JSON.stringify({ level: 30, ...record })}\n`;
const LISTENING = line({ url: 'http://127.0.0.1:40123/mcp', msg: MCP_LISTENING_MESSAGE });

describe('announcedMcpUrl', () => {
  it('finds the url of the listening line among other lines', () => {
    const log = `OTEL-IMPORT file:///x\n${line({ msg: 'OAuth sign-in is on' })}${LISTENING}`;
    expect(announcedMcpUrl(log)).toBe('http://127.0.0.1:40123/mcp');
  });

  it('says nothing before the line is whole, or for lines that only look like it', () => {
    expect(announcedMcpUrl('')).toBeUndefined();
    expect(announcedMcpUrl(LISTENING.slice(0, 40))).toBeUndefined();
    expect(
      announcedMcpUrl(line({ msg: `not the ${MCP_LISTENING_MESSAGE}`, url: 'http://x/mcp' })),
    ).toBeUndefined();
    expect(announcedMcpUrl(line({ msg: MCP_LISTENING_MESSAGE, url: 42 }))).toBeUndefined();
    expect(announcedMcpUrl(`text about ${MCP_LISTENING_MESSAGE}\n`)).toBeUndefined();
  });
});

describe('waitForAnnouncedMcpUrl', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  async function until(condition: () => boolean): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('the child did not start within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** A node child running `script`, its stderr collected the way the test starters collect it. */
  function child(script: string) {
    const started = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(started);
    let log = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    return { child: started, log: () => log };
  }

  it('resolves with the url once the child writes the line, even in two pieces', async () => {
    const [head, tail] = [LISTENING.slice(0, 30), LISTENING.slice(30)];
    const started = child(
      `process.stderr.write(${JSON.stringify(head)}); setTimeout(() => process.stderr.write(${JSON.stringify(tail)}), 100); setTimeout(() => {}, 30000);`,
    );
    const url = await waitForAnnouncedMcpUrl({ ...started, timeoutMs: 20_000, name: 'the child' });
    expect(url).toBe('http://127.0.0.1:40123/mcp');
  });

  it('rejects with the log when the child exits before it listens', async () => {
    const started = child(`process.stderr.write('Port 3000 is already in use\\n'); process.exit(1);`);
    await expect(
      waitForAnnouncedMcpUrl({ ...started, timeoutMs: 20_000, name: 'the child' }),
    ).rejects.toThrow(/the child exited \(1\) before it listened:\nPort 3000 is already in use/);
  });

  it('rejects with the log when the child stays silent past the time', async () => {
    const started = child(`process.stderr.write('starting\\n'); setTimeout(() => {}, 30000);`);
    // The time counts from the call: start it once the child runs (a loaded machine takes a while).
    await until(() => started.log().includes('starting'));
    await expect(waitForAnnouncedMcpUrl({ ...started, timeoutMs: 300, name: 'the child' })).rejects.toThrow(
      /the child did not say it listened within 300 ms:\nstarting/,
    );
  });
});

describe('startAnnouncingServer', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'announced-'));
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** An entry file running `script`: a stand-in for a built server. */
  function entry(name: string, script: string): string {
    const file = path.join(dir, `${name}.mjs`);
    writeFileSync(file, script);
    return file;
  }

  it('starts the entry on 127.0.0.1, port 0, at the level that announces, and resolves with its URL', async () => {
    // The URL it announces echoes what it was given, so the test sees the environment it ran with.
    const echo = entry(
      'echo',
      `const e = process.env;
process.stderr.write(JSON.stringify({ msg: ${JSON.stringify(MCP_LISTENING_MESSAGE)}, url: 'http://' + e.HOST + ':4100/mcp?port=' + e.PORT + '&level=' + e.LOG_LEVEL + '&data=' + e.DATA_DIR }) + '\\n');
setTimeout(() => {}, 30000);`,
    );
    const started = await startAnnouncingServer({
      entry: echo,
      env: { DATA_DIR: '/tmp/x', LOG_LEVEL: 'silent' },
      timeoutMs: 20_000,
      name: 'echo',
    });
    children.push(started.child);
    expect(started.mcpUrl).toBe('http://127.0.0.1:4100/mcp?port=0&level=info&data=/tmp/x');
  });

  it('rejects with the log when the entry fails to start', async () => {
    const failing = entry('failing', `process.stderr.write('no database\\n'); process.exit(3);`);
    await expect(
      startAnnouncingServer({ entry: failing, timeoutMs: 20_000, name: 'failing' }),
    ).rejects.toThrow(/failing exited \(3\) before it listened:\nno database/);
  });
});
