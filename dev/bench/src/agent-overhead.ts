/**
 * @module agent-overhead
 * What the agent itself adds to one tool round trip. The agent answers "What is 2 + 3?" (model
 * turn, `calculate` over MCP, model turn) against the offline demo model with no streaming delay
 * and this server, both in this process. The same two model requests, replayed as raw HTTP, and
 * the same `tools/call`, sent by a plain SDK client, are timed too; the difference of the medians
 * is the agent's overhead: its loop, schema conversion, validation, tracing and result handling.
 * Then `pnpm ask` end to end, as a person runs it after a build.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createSilentLogger, declineInput, loadAgentEnv, startRuntime } from '@mcp-workshop/agent';
import { createDemoModelApp } from '@mcp-workshop/demo-model';
import { startCatalogue } from '@mcp-workshop/mcp-host/run';
import workshop from '@mcp-workshop/mcp-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import express from 'express';
import { median } from './load.js';
import { freePort } from './targets.js';

const QUESTION = 'What is 2 + 3?';
/** Questions asked before the timed ones, so the JIT and the connections are warm. */
export const AGENT_WARM_UP = 20;

export interface AgentOverhead {
  iterations: number;
  agentMs: number;
  modelMs: number;
  mcpMs: number;
  overheadMs: number;
}

/** The demo model behind a recorder: the bench replays exactly the bodies the agent sent. */
async function recordingModel(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const app = express();
  // Parsed once here; the demo model's own JSON parser sees the body is done and skips it.
  app.use(express.json({ limit: '1mb' }));
  app.use((req, _res, next) => {
    if (req.method === 'POST' && req.path.endsWith('/chat/completions'))
      bodies.push(JSON.stringify(req.body));
    next();
  });
  app.use(createDemoModelApp({ chunkDelayMs: 0 }));
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

export async function measureAgentOverhead(iterations: number): Promise<AgentOverhead> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-agent-'));
  const server = await startCatalogue(workshop, { env: { DATA_DIR: dataDir } });
  const model = await recordingModel();
  const env = loadAgentEnv({
    MCP_SERVER_URL: server.mcpUrl,
    DEMO_MODEL_URL: model.url,
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
  });
  const runtime = await startRuntime({ env, logger: createSilentLogger(), onInput: declineInput });
  const client = new Client({ name: 'bench-raw', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
  try {
    // Warm-up, and the two model requests of one round trip, recorded.
    for (let i = 0; i < AGENT_WARM_UP; i++) await runtime.agent.ask(QUESTION);
    const [first, second] = model.bodies.slice(-2);
    if (!first || !second) throw new Error('the agent made fewer than two model requests');
    const replay = (body: string) =>
      fetch(`${model.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }).then((response) => response.text());

    const agentTimes: number[] = [];
    const modelTimes: number[] = [];
    const mcpTimes: number[] = [];
    for (let i = 0; i < iterations; i++) {
      agentTimes.push(
        await timed(async () => {
          const turn = await runtime.agent.ask(QUESTION);
          if (turn.toolCalls.length !== 1 || turn.toolCalls[0]?.isError) throw new Error('unexpected turn');
        }),
      );
      modelTimes.push((await timed(() => replay(first))) + (await timed(() => replay(second))));
      mcpTimes.push(
        await timed(() => client.callTool({ name: 'calculate', arguments: { expression: '2 + 3' } })),
      );
    }
    const agentMs = median(agentTimes);
    const modelMs = median(modelTimes);
    const mcpMs = median(mcpTimes);
    process.stderr.write('  agent overhead: done\n');
    return { iterations, agentMs, modelMs, mcpMs, overheadMs: agentMs - modelMs - mcpMs };
  } finally {
    await client.close();
    await runtime.close();
    await model.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `pnpm -s ask` wall time from a shell, after a build, with nothing running on its ports. */
export async function measurePnpmAsk(repeats: number, repoRoot: string): Promise<number> {
  // "After a build": the build pnpm ask itself runs when a source changed (scripts/build-if-stale.mjs)
  // happens here, untimed, as it would once for a participant after an edit.
  await promisify(execFile)(process.execPath, ['scripts/build-if-stale.mjs'], {
    cwd: repoRoot,
    timeout: 600_000,
  });
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const env = {
      ...process.env,
      PORT: String(await freePort()),
      DEMO_MODEL_PORT: String(await freePort()),
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
      MCP_SERVER_URL: '',
      DEMO_MODEL_URL: '',
    };
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-ask-'));
    try {
      times.push(
        await timed(() =>
          promisify(execFile)('pnpm', ['-s', 'ask', QUESTION], {
            cwd: repoRoot,
            env: { ...env, DATA_DIR: dataDir },
            timeout: 60_000,
          }),
        ),
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  process.stderr.write('  pnpm ask: done\n');
  return median(times);
}
