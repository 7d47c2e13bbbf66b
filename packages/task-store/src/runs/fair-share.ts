/**
 * @module runs/fair-share
 * Which waiting runs get a queue's free slots: the one rule both run queues follow, so one owner's
 * pile of runs cannot starve anyone else's. Each owner waits in a line of its own; a free slot goes
 * to the owner holding the fewest turns (ties: the owner whose first run has waited longest), and
 * no owner is given more than half the slots while another owner waits; an owner that holds more
 * than half while another waits is asked to yield its oldest turn. Pure, so both queues
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

/** A running turn, as `turnsToYield` sees it. */
export interface RunningTurn {
  owner: string;
  /** Already asked to yield (it ends at its next step). */
  asked: boolean;
}

/**
 * Which running turns to ask to yield, oldest first in `running`: one for each owner in `wanting`
 * (owners kept waiting while below their share) not yet answered by a turn already asked, each
 * taken from whichever owner keeps the most turns past its share. None when nobody is past it.
 */
export function turnsToYield(running: readonly RunningTurn[], wanting: number, share: number): number[] {
  const asked = running.map((turn) => turn.asked);
  const chosen: number[] = [];
  while (asked.filter(Boolean).length < wanting) {
    const keeping = new Map<string, number>();
    running.forEach((turn, i) => {
      if (!asked[i]) keeping.set(turn.owner, (keeping.get(turn.owner) ?? 0) + 1);
    });
    let furthest: string | undefined;
    let most = share;
    for (const [owner, kept] of keeping) {
      if (kept <= most) continue;
      most = kept;
      furthest = owner;
    }
    const at = running.findIndex((turn, i) => !asked[i] && turn.owner === furthest);
    if (furthest === undefined || at < 0) break;
    asked[at] = true;
    chosen.push(at);
  }
  return chosen;
}
