/**
 * @module bench/memory
 * Memory under a long run of calls: 10,000 `tools/call`s through the official client over real
 * HTTP, in each serving mode, with the heap measured after a forced GC every 1,000 calls.
 * Run with `pnpm bench:memory` (it needs `node --expose-gc`). Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startLocalServer } from '../local-server.js';

/** Calls per scenario; the figure the README quotes. */
const CALLS = Number(process.argv[2] ?? 10_000);
const SAMPLE_EVERY = 1_000;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('Run with node --expose-gc (pnpm bench:memory does).');
  process.exit(1);
}

function heapMb(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

const CALL_MIX = [
  { name: 'calculate', arguments: { expression: '(2 + 3) * 7 ^ 2' } },
  { name: 'get_weather', arguments: { location: 'Oslo', days: 3 } },
  { name: 'get_time', arguments: { timezone: 'Europe/Oslo' } },
  { name: 'list_tasks', arguments: {} },
];

async function scenario(label: string, stateless: boolean, mode: 'legacy' | 'auto') {
  const dataDir = mkdtempSync(join(tmpdir(), 'mcp-bench-'));
  const server = await startLocalServer({ dataDir, stateless });
  const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));

  const samples: Array<{ calls: number; heapMb: number }> = [{ calls: 0, heapMb: heapMb() }];
  const started = performance.now();
  for (let i = 1; i <= CALLS; i++) {
    const call = CALL_MIX[i % CALL_MIX.length];
    if (!call) continue;
    const result = await client.callTool(call);
    if (result.isError) throw new Error(`call ${i} failed: ${JSON.stringify(result.content)}`);
    if (i % SAMPLE_EVERY === 0) samples.push({ calls: i, heapMb: heapMb() });
  }
  const seconds = (performance.now() - started) / 1000;
  await client.close();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });

  const first = samples[1]?.heapMb ?? 0;
  const last = samples.at(-1)?.heapMb ?? 0;
  const perCallBytes = ((last - first) * 1024 * 1024) / Math.max(1, CALLS - SAMPLE_EVERY);
  console.log(
    `\n${label}: ${CALLS} calls in ${seconds.toFixed(1)} s (${(CALLS / seconds).toFixed(0)} calls/s)`,
  );
  console.log(`  heap after GC (MB): ${samples.map((s) => `${s.calls}:${s.heapMb.toFixed(1)}`).join('  ')}`);
  console.log(
    `  growth from call ${SAMPLE_EVERY} to ${CALLS}: ${(last - first).toFixed(2)} MB (${perCallBytes.toFixed(0)} bytes/call)`,
  );
}

console.log(`Node ${process.version}; ${CALLS} calls per scenario; heap measured after a forced GC.`);
await scenario('stateful session, 2025 era (SSE responses)', false, 'legacy');
await scenario('stateful server, 2026-07-28 era (per-request)', false, 'auto');
await scenario('stateless (MCP_STATELESS=true), 2025 era', true, 'legacy');
