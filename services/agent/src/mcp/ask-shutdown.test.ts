/**
 * `cli.js ask` as a person runs it (the built CLI as a child process), against a server whose tool
 * list may change, as `pnpm dev`'s does, so the agent holds a tool-change subscription: the answer
 * comes, and the CLI's own shutdown writes nothing at warning level or above on stderr.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type NodeRun, runNode } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedOpenAI, startScriptedOpenAI } from '../test-support/scripted-openai.js';
import { type FixtureServer, startFixtureServer } from './test-support/fixture-server.js';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
/** Start-up, one question and shutdown; the CLI is killed past this. */
const RUN_LIMIT_MS = 30_000;
/** pino's number for "warn". */
const WARN = 40;

let fixture: FixtureServer;
let openai: ScriptedOpenAI;

beforeAll(async () => {
  expect(existsSync(CLI), `${CLI} is missing: run pnpm --filter @mcp-workshop/agent build`).toBe(true);
  fixture = await startFixtureServer();
  openai = await startScriptedOpenAI({ fallback: { text: 'Nothing to look up.' } });
});
afterAll(async () => {
  await openai?.close();
  await fixture?.close();
});

function ask(question: string): Promise<NodeRun> {
  return runNode(CLI, ['ask', question], {
    env: {
      MCP_SERVER_URL: fixture.url,
      OPENAI_BASE_URL: openai.baseUrl,
      OPENAI_API_KEY: 'not-needed',
      OPENAI_MODEL: 'scripted',
      OPENAI_API: 'chat',
      LOG_LEVEL: 'info',
    },
    timeoutMs: RUN_LIMIT_MS,
  });
}

/** The JSON log lines of stderr (pino's), parsed. */
function logLines(stderr: string): Array<{ level: number; msg: string }> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

describe('cli.js ask against a server with a changing tool list', () => {
  it('answers, and shuts down without a warning', async () => {
    const { code, stdout, stderr } = await ask('Anything new?');
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Nothing to look up.');
    const lines = logLines(stderr);
    // It did connect, so a subscription was open to close.
    expect(lines.some((line) => line.msg === 'connected to MCP server')).toBe(true);
    expect(lines.filter((line) => line.level >= WARN)).toEqual([]);
  });
});
