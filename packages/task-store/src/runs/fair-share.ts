/**
 * @module runs/fair-share
 * Which waiting runs get a queue's free slots: the one rule both run queues follow, so one owner's
 * pile of runs cannot starve anyone else's. Each owner waits in a line of its own; a free slot goes
 * to the owner holding the fewest turns (ties: the owner whose first run has waited longest), and
 * no owner is given more than half the slots while another owner waits. Pure, so both queues
 * (`in-process-queue.ts`, `pg-boss-queue.ts`) and its test (`fair-share.test.ts`) share it.
 */

/** One owner's line, as a queue sees it when slots free up. */
export interface OwnerLine {
  owner: string;
  /** Its waiting runs, first in line first; `since` orders owners that hold as many turns. */
  waiting: ReadonlyArray<{ id: string; since: number }>;
  /** Turns it holds in this process: what the half rule counts, since the slots are this process's. */
  heldHere: number;
  /** Turns it holds on every replica, when known: whoever holds fewest goes first. Defaults to `heldHere`. */
  heldEverywhere?: number;
}

/**
 * The most slots one owner is given while another waits: half, and at least one so that a queue of
 * one slot still runs. With an odd number of slots the odd one stays free for whoever asks next.
 */
export function ownerShare(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency / 2));
}

/** The ids to start now, in order, for `room` free slots. */
export function pickTurns(lines: readonly OwnerLine[], room: number, share: number): string[] {
  const state = lines
    .filter((line) => line.waiting.length > 0)
    .map((line) => ({
      line,
      next: 0,
      here: line.heldHere,
      everywhere: line.heldEverywhere ?? line.heldHere,
    }));
  const picked: string[] = [];
  while (picked.length < room) {
    const open = state.filter((entry) => entry.next < entry.line.waiting.length);
    // Alone in wanting a slot, an owner may take all of them: nobody else is kept waiting.
    const allowed = open.length === 1 ? open : open.filter((entry) => entry.here < share);
    let best: (typeof allowed)[number] | undefined;
    for (const entry of allowed) if (!best || before(entry, best)) best = entry;
    if (!best) break;
    picked.push((best.line.waiting[best.next] as { id: string }).id);
    best.next += 1;
    best.here += 1;
    best.everywhere += 1;
  }
  return picked;
}

type Entry = { line: OwnerLine; next: number; everywhere: number };

function before(a: Entry, b: Entry): boolean {
  if (a.everywhere !== b.everywhere) return a.everywhere < b.everywhere;
  const aSince = (a.line.waiting[a.next] as { since: number }).since;
  const bSince = (b.line.waiting[b.next] as { since: number }).since;
  if (aSince !== bSince) return aSince < bSince;
  return a.line.owner < b.line.owner;
}
