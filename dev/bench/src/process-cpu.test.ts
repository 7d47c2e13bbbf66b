import { describe, expect, it } from 'vitest';
import { cpuMsFromStat, processCpuMs } from './process-cpu.js';

describe('process CPU time', () => {
  it('reads user and system ticks after the command name, whatever it holds', () => {
    // pid (comm) state ppid … utime (14th) stime (15th) …: 250 + 50 ticks of 10 ms.
    const stat = '4242 (node ) weird) S 1 4242 4242 0 -1 4194560 9000 0 0 0 250 50 0 0 20 0 11 0 100 0 0';
    expect(cpuMsFromStat(stat)).toBe(3_000);
    expect(cpuMsFromStat('garbage')).toBeUndefined();
  });

  it("reads this process's own, where /proc exists", () => {
    const ms = processCpuMs(process.pid);
    if (process.platform === 'linux') expect(ms).toBeGreaterThan(0);
    else expect(ms).toBeUndefined();
  });
});
