/**
 * The agent started as its container starts it (the root Dockerfile's agent target: `node dist/index.js`
 * with AGENT_HOST=0.0.0.0) and as `docker compose up` gives it an empty .env: no AGENT_API_TOKEN.
 * It must come up healthy, make a secret of its own (as a Jupyter server does), print the one-time
 * link to the chat page and never the secret, and refuse API calls without the link's session. A
 * set AGENT_API_TOKEN wins; a bad one still stops the start. The built agent runs as a real process
 * against the built workshop server (`test-support/workshop-process.ts`); it listens on every
 * interface, on ports the OS picks (a port picked here could be taken before the agent binds it),
 * and is reached over 127.0.0.1 at the port its "agent listening" line names.
 *
 * The quotes of this start in README.md (its Docker compose section) and doc/WORKSHOP.md (module 9)
 * carry `<!-- checked-by: services/agent/src/container-start.test.ts -->`: the run below holds them
 * to what the agent prints.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stopChild } from '@mcp-workshop/test-infra';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWorkshopProcess, type WorkshopProcess } from './test-support/workshop-process.js';

const ENTRY = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CHECKED_BY = 'checked-by: services/agent/src/container-start.test.ts';
/** The docs that quote this start, each with the number of quotes this test holds. */
const QUOTING_DOCS = { 'README.md': 1, 'doc/WORKSHOP.md': 1 };
/** A safety net: a start takes about a second idle, and ten times that beside the rest of `pnpm test`. */
const READY_TIMEOUT_MS = 60_000;
/** A secret as `openssl rand -hex 32` makes it. */
const SET_TOKEN = '5c1e0f9a7b3d2e8f4a6c0b1d9e7f3a5c2b8d4e6f0a1c3e5b7d9f2a4c6e8b0d1f3';
/** What the generated secret looks like (randomBytes(32) as hex): it must appear nowhere in the log. */
const HEX_SECRET = /(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])/;

interface LogLine {
  level: number;
  msg: string;
  url?: string;
}

interface AgentProcess {
  /** Where it listens, once it has said so (`healthy()` waits for that); throws before. */
  readonly base: string;
  readonly port: number;
  child: ChildProcess;
  /** stderr so far, as printed. */
  output(): string;
  /** The JSON log lines so far. */
  lines(): LogLine[];
  /** The one-time links printed so far, in order. */
  links(): string[];
}

let workshop: WorkshopProcess;
const running: AgentProcess[] = [];

beforeAll(async () => {
  if (!existsSync(ENTRY))
    throw new Error(`${ENTRY} is missing. Build it: pnpm --filter @mcp-workshop/agent build`);
  workshop = await startWorkshopProcess();
}, 30_000);

afterEach(async () => {
  await Promise.all(running.splice(0).map((agent) => stopChild(agent.child, { graceMs: 3_000 })));
});

afterAll(async () => {
  await workshop?.close();
});

/** Starts `node dist/index.js` with only these variables (nothing inherited: no stray token). */
async function startAgent(env: Record<string, string>): Promise<AgentProcess> {
  const child = spawn(process.execPath, [ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      // The Dockerfile's ENV and compose's environment; ports the OS picks.
      NODE_ENV: 'production',
      AGENT_HOST: '0.0.0.0',
      AGENT_PORT: '0',
      AGENT_VIEW_SANDBOX_PORT: '0',
      MCP_SERVER_URL: workshop.mcpUrl,
      MCP_CONNECT_ATTEMPTS: '3',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // Whole JSON lines only: the last one may still be arriving.
  const lines = () =>
    output.split('\n').flatMap((line) => {
      try {
        return line.startsWith('{') ? [JSON.parse(line) as LogLine] : [];
      } catch {
        return [];
      }
    });
  const agent: AgentProcess = {
    get base() {
      const url = announcedUrl(agent);
      if (!url) throw new Error(`the agent has not said where it listens yet:\n${output}`);
      return url.origin;
    },
    get port() {
      return Number(new URL(agent.base).port);
    },
    child,
    output: () => output,
    lines,
    links: () =>
      lines()
        .filter((line) => line.msg.startsWith('open the chat page with this one-time link'))
        .map((line) => line.url ?? ''),
  };
  running.push(agent);
  return agent;
}

/** The URL of its "agent listening" line, written once it listens and has connected. */
function announcedUrl(agent: Pick<AgentProcess, 'lines'>): URL | undefined {
  const url = agent.lines().find((line) => line.msg === 'agent listening')?.url;
  return url ? new URL(url) : undefined;
}

/**
 * Resolves with /health's answer once the agent has said where it listens and /health there is 200;
 * fails at once if the agent exits.
 */
async function healthy(agent: AgentProcess): Promise<unknown> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (agent.child.exitCode !== null)
      throw new Error(`the agent exited with code ${agent.child.exitCode}:\n${agent.output()}`);
    const url = announcedUrl(agent);
    const response = url ? await fetch(new URL('/health', url)).catch(() => undefined) : undefined;
    if (response?.status === 200) return response.json();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `the agent did not answer /health with 200 within ${READY_TIMEOUT_MS} ms:\n${agent.output()}`,
  );
}

/** Waits for the process to end; its exit code. */
function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const chat = (agent: AgentProcess, headers: Record<string, string> = {}) =>
  fetch(`${agent.base}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ message: 'What is 6 * 7?' }),
  });

/** Opens a one-time link as a browser would (without following the redirect): the session cookie. */
async function openLink(link: string): Promise<{ status: number; cookie: string | undefined }> {
  const response = await fetch(link, { redirect: 'manual' });
  return { status: response.status, cookie: response.headers.get('set-cookie')?.split(';')[0] };
}

/**
 * The fenced blocks of `file` under this test's marker, as lines. Each quoted line stands for one
 * printed line; a line that is only `…` for any number of lines, and a `…` inside a line for any
 * text. What changes from run to run does not count ({@link volatile}).
 */
function quotes(file: string): string[][] {
  const lines = readFileSync(`${REPO}${file}`, 'utf8').split('\n');
  const found: string[][] = [];
  lines.forEach((line, index) => {
    if (!line.includes(CHECKED_BY)) return;
    const open = lines.findIndex((text, at) => at > index && /^\s*```/.test(text));
    const close = lines.findIndex((text, at) => at > open && /^\s*```\s*$/.test(text));
    if (open < 0 || close < 0) throw new Error(`${file}:${index + 1}: no fenced block after the marker`);
    found.push(lines.slice(open + 1, close).map((text) => text.trim()));
  });
  return found;
}

/** The log's time, the agent's port and the link's token: the parts that change from run to run. */
const volatile = (text: string) =>
  text
    .replace(/"time":\d+/g, '"time":0')
    .replace(/\b(127\.0\.0\.1|localhost):\d+/g, '$1:PORT')
    .replace(/([?&]token=)[\w-]+/g, '$1TOKEN');

/** Whether `printed` holds the quoted lines in order, as `quotes` reads them. */
function holdsQuote(quoted: string[], printed: string[]): boolean {
  const pattern = (line: string) =>
    new RegExp(
      `^${volatile(line)
        .split(/\s*…\s*/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*?')}$`,
    );
  const real = printed.map((line) => volatile(line.trim())).filter(Boolean);
  let at = 0;
  let skipping = false;
  for (const line of quoted.filter(Boolean)) {
    if (/^(…|\.\.\.)$/.test(line)) {
      skipping = true;
      continue;
    }
    const regex = pattern(line);
    while (at < real.length && !regex.test(real[at] ?? '') && skipping) at++;
    if (at >= real.length || !regex.test(real[at] ?? '')) return false;
    at++;
    skipping = false;
  }
  return true;
}

describe('the agent as its container starts it (AGENT_HOST=0.0.0.0)', {
  timeout: 2 * READY_TIMEOUT_MS,
}, () => {
  it('without AGENT_API_TOKEN: comes up healthy, prints the one-time link, and refuses the API without it', async () => {
    const agent = await startAgent({});
    // Docker's healthcheck has no token: it learns "up", nothing more.
    expect(await healthy(agent)).toEqual({ status: 'ok', ready: true });

    // The link, and one line saying how API clients get a fixed secret; both at warn, the default shows.
    await until(() => agent.links().length === 1, 'the one-time link');
    const made = agent.lines().find((line) => line.msg.includes('this run made its own secret'));
    expect(made?.level).toBe(40);
    expect(made?.msg).toContain('AGENT_HOST=0.0.0.0 is not loopback and AGENT_API_TOKEN is not set');
    expect(made?.msg).toContain('set a fixed AGENT_API_TOKEN (in .env for docker compose');
    const [link = ''] = agent.links();
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${agent.port}/\\?token=[\\w-]{43}$`));
    expect(agent.lines().find((line) => line.url === link)?.level).toBe(40);

    // Without the secret or a session: 401, for a guess too.
    expect((await chat(agent)).status).toBe(401);
    expect((await fetch(`${agent.base}/api/tools`)).status).toBe(401);
    expect((await chat(agent, { authorization: `Bearer ${SET_TOKEN}` })).status).toBe(401);
    // The link's own token is no API secret.
    const linkToken = new URL(link).searchParams.get('token') ?? '';
    expect((await chat(agent, { authorization: `Bearer ${linkToken}` })).status).toBe(401);

    // The link lets a browser in, once; the agent then prints a fresh one.
    const opened = await openLink(link);
    expect(opened.status).toBe(303);
    expect(opened.cookie).toBeDefined();
    const tools = await fetch(`${agent.base}/api/tools`, { headers: { cookie: opened.cookie ?? '' } });
    expect(tools.status).toBe(200);
    expect(((await tools.json()) as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    expect((await openLink(link)).status).toBe(401);
    await until(() => agent.links().length === 2, 'a fresh link after the first was used');

    // The secret it made is printed nowhere, in the link or beside it.
    expect(agent.output()).not.toMatch(HEX_SECRET);

    // What README.md and module 9 quote of this start.
    await until(
      () => agent.lines().some((line) => line.msg === 'agent listening'),
      '"agent listening" in the log',
    );
    const printed = agent.output().split('\n');
    for (const [file, count] of Object.entries(QUOTING_DOCS)) {
      const held = quotes(file);
      expect(held, file).toHaveLength(count);
      for (const quote of held)
        expect(holdsQuote(quote, printed), `${file}:\n${quote.join('\n')}`).toBe(true);
    }
  });

  it('with AGENT_API_TOKEN set: that secret wins, and no other is made', async () => {
    const agent = await startAgent({ AGENT_API_TOKEN: SET_TOKEN });
    await healthy(agent);
    await until(() => agent.links().length === 1, 'the one-time link');
    expect(agent.output()).not.toContain('made its own secret');
    expect(agent.output()).not.toContain(SET_TOKEN);
    expect((await fetch(`${agent.base}/api/tools`)).status).toBe(401);
    const tools = await fetch(`${agent.base}/api/tools`, {
      headers: { authorization: `Bearer ${SET_TOKEN}` },
    });
    expect(tools.status).toBe(200);
  });

  it('with a bad AGENT_API_TOKEN: refuses to start, as before, without printing it', async () => {
    const bad = 'change-me-change-me-change-me-change-me';
    const agent = await startAgent({ AGENT_API_TOKEN: bad });
    expect(await exitCode(agent.child)).toBe(1);
    expect(agent.output()).toContain('AGENT_API_TOKEN: looks like a placeholder');
    expect(agent.output()).not.toContain(bad);
  });

  it('on loopback without AGENT_API_TOKEN: open to local callers, no link, as before', async () => {
    const agent = await startAgent({ AGENT_HOST: '127.0.0.1' });
    await healthy(agent);
    expect((await fetch(`${agent.base}/api/tools`)).status).toBe(200);
    expect(agent.links()).toEqual([]);
    expect(agent.output()).not.toContain('made its own secret');
  });
});

describe('holdsQuote', () => {
  const printed = ['{"level":30,"time":1,"msg":"a"}', '{"level":30,"time":2,"msg":"b"}', 'c'];

  it('matches lines in order, with … for lines and for text, times and ports aside', () => {
    expect(holdsQuote(['{"level":30,"time":9,"msg":"a"}', '…', 'c'], printed)).toBe(true);
    expect(holdsQuote(['…', '{"level":30, … "msg":"b"}', 'c'], printed)).toBe(true);
    expect(holdsQuote(['http://127.0.0.1:3001/'], ['http://127.0.0.1:41234/'])).toBe(true);
  });

  it('fails on a line the agent does not print, or out of order', () => {
    expect(holdsQuote(['{"level":30, … "msg":"z"}'], printed)).toBe(false);
    expect(holdsQuote(['c', '…', '{"level":30, … "msg":"a"}'], printed)).toBe(false);
    expect(holdsQuote(['{"level":30, … "msg":"a"}', 'c'], printed)).toBe(false);
    // A quote starts at the first line printed, unless it starts with `…`.
    expect(holdsQuote(['{"level":30, … "msg":"b"}'], printed)).toBe(false);
  });
});
