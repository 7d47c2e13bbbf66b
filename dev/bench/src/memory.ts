/**
 * @module memory
 * Two memory figures, read through the heap probe after forced GCs:
 * - an idle 2025 session: open N sessions, and divide the heap they added by N;
 * - a long run: 100,000 calls (in bounded chunks) in each of this server's modes, the heap
 *   sampled after every chunk, to show it stays flat.
 */
import { runLoad, verifyCall } from './load.js';
import { openSession, startTarget, TARGETS, type Target, targetById } from './targets.js';

export interface SessionMemoryRow {
  id: string;
  label: string;
  kibPerSession: number;
}

/** The targets whose idle session is measured. */
export const IDLE_SESSION_TARGETS: readonly string[] = ['sdk-v1', 'everything', 'ours-2025'];

export async function measureIdleSessions(sessions: number): Promise<SessionMemoryRow[]> {
  const rows: SessionMemoryRow[] = [];
  for (const id of IDLE_SESSION_TARGETS) {
    const target = targetById(id);
    const running = await startTarget(target);
    try {
      // One session first, so code loaded on first use is not counted as per-session memory.
      await openSession(running.url);
      const before = await running.heap();
      for (let i = 0; i < sessions; i++) await openSession(running.url);
      const after = await running.heap();
      rows.push({ id, label: target.label, kibPerSession: (after - before) / sessions / 1024 });
    } finally {
      await running.stop();
    }
  }
  process.stderr.write('  idle sessions: done\n');
  return rows;
}

export interface HeapRow {
  id: string;
  label: string;
  calls: number;
  /** Heap after the first chunk and after the last, in MB. */
  firstMb: number;
  lastMb: number;
  samplesMb: number[];
  errors: number;
}

export const OUR_MODES: readonly Target[] = TARGETS.filter((target) => target.server === 'ours');

export async function measureHeapOverCalls(calls: number, chunks: number): Promise<HeapRow[]> {
  const rows: HeapRow[] = [];
  for (const target of OUR_MODES) {
    const running = await startTarget(target);
    try {
      const call = await target.prepare(running.url);
      await verifyCall(call);
      const samples: number[] = [];
      let errors = 0;
      for (let chunk = 0; chunk < chunks; chunk++) {
        const result = await runLoad(call, { connections: 10, amount: Math.ceil(calls / chunks) });
        errors += result.errors;
        samples.push((await running.heap()) / 1024 / 1024);
      }
      rows.push({
        id: target.id,
        label: target.label,
        calls,
        firstMb: samples[0] ?? 0,
        lastMb: samples.at(-1) ?? 0,
        samplesMb: samples,
        errors,
      });
    } finally {
      await running.stop();
    }
  }
  process.stderr.write('  heap over calls: done\n');
  return rows;
}
