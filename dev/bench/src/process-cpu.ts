/**
 * @module process-cpu
 * The CPU time a process has used so far (user + system), read from Linux's `/proc/<pid>/stat`,
 * so the bench can divide a round's CPU by the calls it served. CPU per call moves much less than
 * throughput when other work shares the machine (throughput counts the time a request waited for
 * a core; CPU time counts only what serving it took), so small costs (the rate limits') are
 * compared on it. Undefined where `/proc` is missing (macOS, Windows). Test: `process-cpu.test.ts`.
 */
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: `/proc` counts CPU time in ticks of 10 ms on every common architecture. */
const TICKS_PER_SECOND = 100;

/** Milliseconds of CPU `pid` has used, from the text of its `/proc/<pid>/stat`. */
export function cpuMsFromStat(stat: string): number | undefined {
  // The command name (field 2) is in parentheses and may hold spaces; fields are counted after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system)) return undefined;
  return ((user + system) * 1000) / TICKS_PER_SECOND;
}

export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return cpuMsFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}
