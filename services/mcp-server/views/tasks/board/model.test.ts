import { describe, expect, it } from 'vitest';
import { headline, parseBoard } from './model.js';

const task = (id: number, done: boolean) => ({
  id,
  title: `task ${id}`,
  done,
  createdAt: '2026-07-28T12:00:00.000Z',
  completedAt: done ? '2026-07-28T13:00:00.000Z' : null,
});

describe('task board model', () => {
  it('counts the totals from an unfiltered list_tasks result', () => {
    const board = parseBoard({
      items: [task(1, false), task(2, true), task(3, false)],
      count: 3,
      status: 'all',
    });
    expect(board?.totals).toEqual({ open: 2, done: 1 });
    expect(board && headline(board)).toBe('2 open · 1 done');
  });

  it('does not guess totals from a filtered list, and says what it shows instead', () => {
    const board = parseBoard({ items: [task(1, false)], count: 1, status: 'open' });
    expect(board?.totals).toBeUndefined();
    expect(board && headline(board)).toBe('1 open task');
  });

  it('does not count totals from a list_tasks page that has more after it', () => {
    const board = parseBoard({
      items: [task(1, false), task(2, true)],
      count: 2,
      status: 'all',
      nextCursor: 'dDE',
    });
    expect(board).toMatchObject({ filter: 'all', more: true });
    expect(board?.totals).toBeUndefined();
    expect(board && headline(board)).toBe('first 2 all tasks');
  });

  it('takes the totals task_board_refresh sends, whatever the filter', () => {
    const board = parseBoard({ items: [], count: 0, status: 'done', openCount: 4, doneCount: 0 });
    expect(board && headline(board)).toBe('4 open · 0 done');
    expect(board?.filter).toBe('done');
  });

  it.each([
    ['nothing', undefined],
    ['a weather report', { place: {}, current: {} }],
    ['an unknown filter', { items: [], count: 0, status: 'archived' }],
    ['a task without an id', { items: [{ title: 'x', done: false }], count: 1, status: 'all' }],
  ])('refuses %s', (_label, content) => {
    expect(parseBoard(content)).toBeUndefined();
  });
});
