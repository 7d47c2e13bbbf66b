/**
 * The launcher's half of the handoff, against real child processes: small scripts that play the
 * agent's CLI (ask for the environment over IPC, write down what came, exit), so each order of
 * events can be forced. The real CLI's half is `launcher-handoff.test.ts` in the agent; both run
 * together in `launcher.e2e.test.ts`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WAITING_MESSAGE } from '@mcp-workshop/agent/launcher-handoff';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGNAL_EXIT_CODE, spawnAgent } from './agent-process.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-process-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An agent that asks (then writes `asked`), and writes the variables it is sent to `received.json`. */
function fakeAgent(): string {
  const script = join(dir, 'agent.mjs');
  writeFileSync(
    script,
    `import { writeFileSync } from 'node:fs';
process.on('message', (message) => {
  writeFileSync(${JSON.stringify(join(dir, 'received.json'))}, JSON.stringify(message.env));
  process.disconnect();
});
process.send(${JSON.stringify(WAITING_MESSAGE)}, () => writeFileSync(${JSON.stringify(join(dir, 'asked'))}, ''));
`,
  );
  return script;
}

function received(): unknown {
  return JSON.parse(readFileSync(join(dir, 'received.json'), 'utf8'));
}

describe('spawnAgent', () => {
  it('hands over the variables when the agent asks after the services are ready', async () => {
    const agent = spawnAgent(fakeAgent(), [], { PATH: process.env.PATH ?? '' });
    agent.start({ MCP_SERVER_URL: 'http://127.0.0.1:4100/mcp' });
    expect(await agent.exited).toBe(0);
    expect(received()).toEqual({ MCP_SERVER_URL: 'http://127.0.0.1:4100/mcp' });
  });

  it('holds an agent that asked early until the services are ready', async () => {
    const agent = spawnAgent(fakeAgent(), [], { PATH: process.env.PATH ?? '' });
    // Until the agent has asked (bounded: a stuck agent fails the test, not hangs it).
    const deadline = Date.now() + 10_000;
    while (!existsSync(join(dir, 'asked')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(existsSync(join(dir, 'asked'))).toBe(true);
    agent.start({ DEMO_MODEL_URL: 'http://127.0.0.1:4200/v1' });
    expect(await agent.exited).toBe(0);
    expect(received()).toEqual({ DEMO_MODEL_URL: 'http://127.0.0.1:4200/v1' });
  });

  it('reports the exit code of an agent that exits without asking, and starting it then is harmless', async () => {
    const script = join(dir, 'usage.mjs');
    writeFileSync(script, 'process.exit(2);\n');
    const agent = spawnAgent(script, [], { PATH: process.env.PATH ?? '' });
    expect(await agent.exited).toBe(2);
    agent.start({});
  });

  it('stops an agent still waiting for its services, which counts as ended by a signal', async () => {
    const agent = spawnAgent(fakeAgent(), [], { PATH: process.env.PATH ?? '' });
    await agent.stop();
    expect(await agent.exited).toBe(SIGNAL_EXIT_CODE);
  });
});
