/**
 * The task board's pure logic: reading `list_tasks` and `task_board_refresh` results and the counts
 * its header shows. Kept apart from the DOM so `model.test.ts` can check it. Partner: `main.ts`.
 */
import { z } from 'zod';
import type { output as listOutput } from '../../../src/tools/list-tasks.js';
import type { output as refreshOutput } from '../../../src/tools/task-board-refresh.js';

export type Filter = 'all' | 'open' | 'done';

const task = z.object({ id: z.number().int(), title: z.string(), done: z.boolean() });

/** `list_tasks` and `task_board_refresh` both answer with these; the refresh adds the totals. */
const boardSchema = z.object({
  items: z.array(task),
  status: z.enum(['all', 'open', 'done']),
  openCount: z.number().int().optional(),
  doneCount: z.number().int().optional(),
  nextCursor: z.string().optional(),
});

/**
 * What `list_tasks` and `task_board_refresh` return (their `output` schemas): tsc fails here if
 * either stops giving the board what it reads.
 */
export type BoardResult = Readable<z.output<typeof listOutput>> | Readable<z.output<typeof refreshOutput>>;
type Readable<T extends z.infer<typeof boardSchema>> = T;

export interface Board {
  items: Array<z.infer<typeof task>>;
  filter: Filter;
  /** Totals across every task of the caller: from the refresh, else counted from a full list. */
  totals?: { open: number; done: number };
  /** A `list_tasks` page with more after it: the items are not all of the caller's tasks. */
  more?: boolean;
}

/** The board in `structuredContent`, or undefined when it is not a task list. */
export function parseBoard(structuredContent: unknown): Board | undefined {
  const parsed = boardSchema.safeParse(structuredContent);
  if (!parsed.success) return undefined;
  const { items, status, openCount, doneCount, nextCursor } = parsed.data;
  if (openCount !== undefined && doneCount !== undefined) {
    return { items, filter: status, totals: { open: openCount, done: doneCount } };
  }
  // list_tasks has no totals; only an unfiltered list on one page shows them all.
  if (nextCursor !== undefined) return { items, filter: status, more: true };
  if (status !== 'all') return { items, filter: status };
  const done = items.filter((item) => item.done).length;
  return { items, filter: status, totals: { open: items.length - done, done } };
}

/** The header line: "2 open · 3 done", or the filter when the totals are not known yet. */
export function headline(board: Board): string {
  if (board.totals) return `${board.totals.open} open · ${board.totals.done} done`;
  const shown = `${board.items.length} ${board.filter} task${board.items.length === 1 ? '' : 's'}`;
  return board.more ? `first ${shown}` : shown;
}
