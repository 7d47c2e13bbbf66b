/**
 * The rule both run queues share (`fair-share.ts`): who gets the free slots, owner by owner.
 */
import { describe, expect, it } from 'vitest';
import { type OwnerLine, ownerShare, pickTurns, turnsToYield } from './fair-share.js';

/** A line of `count` runs named `<owner>1`, `<owner>2`…, each waiting since `since` plus its place. */
const line = (owner: string, count: number, heldHere = 0, since = 0, heldEverywhere?: number): OwnerLine => ({
  owner,
  waiting: Array.from({ length: count }, (_, i) => ({ id: `${owner}${i + 1}`, since: since + i })),
  heldHere,
  ...(heldEverywhere !== undefined && { heldEverywhere }),
});

describe('ownerShare', () => {
  it('is half the slots, rounded down, and never less than one', () => {
    expect([1, 2, 3, 4, 5, 8].map(ownerShare)).toEqual([1, 1, 1, 2, 2, 4]);
  });
});

describe('pickTurns', () => {
  it('goes round the owners, fewest held first, longest waiting first among equals', () => {
    expect(pickTurns([line('a', 12), line('b', 1, 0, 100)], 4, 2)).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('gives a freed slot to the owner holding fewer turns, however long the other line', () => {
    expect(pickTurns([line('a', 24, 3), line('b', 1, 0, 1_000)], 1, 2)).toEqual(['b1']);
  });

  it('gives one owner every slot when nobody else waits', () => {
    expect(pickTurns([line('a', 6, 2)], 4, 2)).toEqual(['a1', 'a2', 'a3', 'a4']);
  });

  it('never takes an owner past half the slots while another waits, leaving the slot free instead', () => {
    // Both at their share of 1 (three slots): the odd slot stays free for whoever asks next.
    expect(pickTurns([line('a', 3, 1), line('b', 3, 1)], 1, 1)).toEqual([]);
    expect(pickTurns([line('a', 3, 2), line('b', 3, 1)], 1, 2)).toEqual(['b1']);
  });

  it('orders by turns held on every replica, and counts the half rule on this one', () => {
    // a holds 5 elsewhere, b none: b goes first, though a holds nothing here.
    expect(pickTurns([line('a', 2, 0, 0, 5), line('b', 2, 0, 50, 0)], 2, 2)).toEqual(['b1', 'b2']);
  });

  it('picks nothing without room or without waiting runs', () => {
    expect(pickTurns([line('a', 3)], 0, 2)).toEqual([]);
    expect(pickTurns([line('a', 0, 4)], 4, 2)).toEqual([]);
  });
});

describe('turnsToYield', () => {
  const turns = (owners: string, asked = '') =>
    [...owners].map((owner, i) => ({ owner, asked: asked[i] === 'y' }));

  it('asks the oldest turn of the owner furthest past its share, one per owner kept waiting', () => {
    expect(turnsToYield(turns('aaab'), 1, 2)).toEqual([0]);
    expect(turnsToYield(turns('abaa'), 2, 1)).toEqual([0, 2]);
  });

  it('counts turns already asked, and asks nobody at or below their share', () => {
    expect(turnsToYield(turns('aaaa', 'y'), 1, 2)).toEqual([]);
    expect(turnsToYield(turns('aabb'), 2, 2)).toEqual([]);
    expect(turnsToYield(turns('aaaa'), 0, 2)).toEqual([]);
  });
});
