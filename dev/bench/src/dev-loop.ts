/**
 * @module dev-loop
 * The participant's loop, timed: `pnpm dev`'s server (`catalogue-dev`) on a scratch copy of the
 * catalogue, one MCP session open across the saves. Each save rewrites one tool (the first adds it
 * to the catalogue); from the moment the file is written it measures until `tools/list` on that
 * session shows the change (save → visible) and until a call answers the new way (save → answer).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { startDevOnScratchCopy } from '@mcp-workshop/catalogue-dev';
import { freePort } from '@mcp-workshop/test-infra';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const require = createRequire(import.meta.url);
const CATALOGUE = path.dirname(require.resolve('@mcp-workshop/mcp-server/package.json'));
/** A save that has not shown after this is a broken loop, not a slow one. */
const SAVE_TIMEOUT_MS = 15_000;
/** Between saves: an editor is not a fuzzer, and each save should be measured on its own. */
const PAUSE_BETWEEN_SAVES_MS = 300;

export interface DevLoopReport {
  saves: number;
  visibleMs: number[];
  answerMs: number[];
  /** The same measures for the first save, which adds the tool to the catalogue's list. */
  firstVisibleMs: number;
  firstAnswerMs: number;
}

/** The probe tool, answering with `round`. */
function probeTool(round: number): string {
  return `import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool } from '../deps.js';

export const benchProbe = defineTool({
  name: 'bench_probe',
  title: 'Bench probe',
  description: 'Round ${round} of the dev-loop bench. Returns { round }.',
  input: z.object({}),
  output: z.object({ round: z.number().int().describe('Which save this is.') }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run() {
    return ok({ round: ${round} });
  },
});
`;
}

async function until<T>(get: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = performance.now() + SAVE_TIMEOUT_MS;
  while (performance.now() < deadline) {
    const value = await get().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`dev loop: ${what} did not happen within ${SAVE_TIMEOUT_MS} ms`);
}

export async function measureDevLoop(saves: number): Promise<DevLoopReport> {
  process.stderr.write(`dev loop: ${saves} saves on a scratch copy of the catalogue\n`);
  const dev = await startDevOnScratchCopy(CATALOGUE, await freePort(), { PATH: process.env.PATH ?? '' });
  const session = new Client({ name: 'bench-dev-loop', version: '0' });
  try {
    await session.connect(new StreamableHTTPClientTransport(new URL(dev.mcpUrl)));
    const measureSave = async (round: number, write: () => void) => {
      const savedAt = performance.now();
      write();
      await until(async () => {
        const { tools } = await session.listTools();
        return tools.some((tool) => tool.description?.startsWith(`Round ${round} `)) || undefined;
      }, `round ${round} in tools/list`);
      const visible = performance.now() - savedAt;
      await until(async () => {
        const answer = await session.callTool({ name: 'bench_probe', arguments: {} });
        return (answer.structuredContent as { round?: number } | undefined)?.round === round || undefined;
      }, `round ${round} answering`);
      return { visible, answer: performance.now() - savedAt };
    };

    const first = await measureSave(0, () => dev.addTool('bench-probe', 'benchProbe', probeTool(0)));
    const visibleMs: number[] = [];
    const answerMs: number[] = [];
    for (let round = 1; round <= saves; round++) {
      await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_SAVES_MS));
      const timed = await measureSave(round, () => dev.save('src/tools/bench-probe.ts', probeTool(round)));
      visibleMs.push(timed.visible);
      answerMs.push(timed.answer);
    }
    return { saves, visibleMs, answerMs, firstVisibleMs: first.visible, firstAnswerMs: first.answer };
  } finally {
    await session.close().catch(() => undefined);
    await dev.stop();
  }
}
