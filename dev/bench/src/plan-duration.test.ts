import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PLANS } from './plan.js';
import { plannedSeconds, plannedTotalSeconds, REFERENCE_RATES } from './plan-duration.js';

const WORKSHOP = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'doc', 'WORKSHOP.md');
/** A figure in the docs is "about" the plan's: machines differ, a drift past this is a stale doc. */
const MARGIN = 0.15;

/** Module 10 of the workshop, where the bench's durations are promised. */
function moduleTen(): string {
  const text = readFileSync(WORKSHOP, 'utf8');
  const start = text.indexOf('\n## 10. ');
  const end = text.indexOf('\n## 11. ', start);
  expect(start, 'doc/WORKSHOP.md has a "## 10." module').toBeGreaterThan(0);
  return text.slice(start, end < 0 ? undefined : end);
}

function quotedSeconds(text: string, pattern: RegExp, unitSeconds: number): number {
  const match = pattern.exec(text);
  expect(match, `module 10 of doc/WORKSHOP.md says ${pattern}`).not.toBeNull();
  return Number(match?.[1]) * unitSeconds;
}

describe('plannedSeconds', () => {
  it('matches the full bench duration module 10 promises', () => {
    const quoted = quotedSeconds(moduleTen(), /run the full bench \(about (\d+) minutes\)/, 60);
    const planned = plannedTotalSeconds(PLANS.full);
    expect(Math.abs(quoted - planned) / planned).toBeLessThanOrEqual(MARGIN);
  });

  it("matches the smoke run's duration in module 10's checkpoint", () => {
    const quoted = quotedSeconds(moduleTen(), /\*\*Checkpoint\*\* \(about (\d+) seconds/, 1);
    const planned = plannedTotalSeconds(PLANS.smoke);
    expect(Math.abs(quoted - planned) / planned).toBeLessThanOrEqual(MARGIN);
  });

  it('counts every timed round: more rounds or longer ones take longer, section by section', () => {
    const base = plannedSeconds(PLANS.full);
    const longer = plannedSeconds({ ...PLANS.full, roundSeconds: PLANS.full.roundSeconds * 2 });
    const more = plannedSeconds({ ...PLANS.full, rounds: PLANS.full.rounds + 1 });
    for (const section of ['throughput', 'scale', 'telemetry']) {
      expect(longer[section], section).toBeGreaterThan(base[section] ?? 0);
      expect(more[section], section).toBeGreaterThan(base[section] ?? 0);
    }
    // Seven targets, and our three modes again with the rate limits off: ten × (1 s warm-up + 3 rounds of 8 s).
    expect(base.throughput).toBe(10 * (REFERENCE_RATES.spawnSeconds + 1 + 3 * 8));
  });

  it('counts the heap calls and the agent questions at the reference rates', () => {
    const base = plannedSeconds(PLANS.full);
    const doubled = plannedSeconds({ ...PLANS.full, heapCalls: 2 * PLANS.full.heapCalls });
    expect((doubled.memory ?? 0) - (base.memory ?? 0)).toBeCloseTo(
      (3 * PLANS.full.heapCalls) / REFERENCE_RATES.callsPerSecond,
    );
    const asks = plannedSeconds({ ...PLANS.full, askRepeats: PLANS.full.askRepeats + 1 });
    expect((asks.agent ?? 0) - (base.agent ?? 0)).toBeCloseTo(REFERENCE_RATES.pnpmAskSeconds);
  });

  it('counts each task polled at the hint as the suggested interval more than one polled back-to-back', () => {
    const base = plannedSeconds(PLANS.full);
    const more = plannedSeconds({ ...PLANS.full, tasks: PLANS.full.tasks + 1 });
    // One task more each way: two at the reference rate, one of them after a 500 ms wait.
    expect((more.tasks ?? 0) - (base.tasks ?? 0)).toBeCloseTo(2 * REFERENCE_RATES.taskSeconds + 0.5);
  });

  it('bounds a counted add run by its time limit on a very slow machine', () => {
    const crawling = { ...REFERENCE_RATES, telemetryAddsPerSecond: 0.001 };
    const slow = plannedSeconds(PLANS.full, crawling);
    const fast = plannedSeconds(PLANS.full);
    // 3 rounds × 4 modes × (warm-up + measured run), each cut at max(10, 4 × 8) s.
    expect(slow.telemetry).toBeLessThanOrEqual((fast.telemetry ?? 0) + 3 * 4 * 2 * 32);
    expect(slow.telemetry).toBeGreaterThan(fast.telemetry ?? 0);
  });

  it('makes the smoke run a small fraction of the full one', () => {
    expect(plannedTotalSeconds(PLANS.smoke)).toBeLessThan(plannedTotalSeconds(PLANS.full) / 5);
  });
});
