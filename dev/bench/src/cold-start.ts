/**
 * @module cold-start
 * From spawn to the first answered request: `initialize` (every target), and for this server
 * also a 2026-07-28 `tools/list`, which needs no handshake. stdio hosts such as Claude Desktop
 * start the server on every launch, so this is a figure users feel.
 */
import { median } from './load.js';
import { MODERN_VERSION, modernListBody, POST_HEADERS } from './rpc.js';
import { freePort, type ServerKind, spawnServer, stopChild, waitReady } from './targets.js';

export interface ColdStartRow {
  id: string;
  label: string;
  ms: number;
}

interface ColdStartCase {
  id: string;
  label: string;
  kind: ServerKind;
  modern?: boolean;
}

/** The spawns of one repeat; exported for the bench plan's duration (plan-duration.ts). */
export const COLD_START_CASES: readonly ColdStartCase[] = [
  { id: 'raw', label: 'raw node:http, first answer', kind: 'raw' },
  { id: 'sdk-v1', label: 'official SDK v1, initialize', kind: 'sdk-v1' },
  { id: 'everything', label: 'server-everything, initialize', kind: 'everything' },
  { id: 'ours-initialize', label: 'this server, initialize', kind: 'ours' },
  { id: 'ours-2026-list', label: 'this server, 2026-07-28 tools/list', kind: 'ours', modern: true },
];

async function once(item: ColdStartCase): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const spawned = spawnServer(item.kind, port);
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    if (item.modern) {
      const headers = { ...POST_HEADERS, 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/list' };
      await waitReady(url, spawned.child, spawned.stderr, item.kind, modernListBody(), headers);
    } else {
      await waitReady(url, spawned.child, spawned.stderr, item.kind);
    }
    return performance.now() - started;
  } finally {
    await stopChild(spawned.child);
    spawned.cleanup();
  }
}

export async function measureColdStart(repeats: number): Promise<ColdStartRow[]> {
  const rows: ColdStartRow[] = [];
  for (const item of COLD_START_CASES) {
    const times: number[] = [];
    for (let i = 0; i < repeats; i++) times.push(await once(item));
    rows.push({ id: item.id, label: item.label, ms: median(times) });
  }
  process.stderr.write('  cold start: done\n');
  return rows;
}
