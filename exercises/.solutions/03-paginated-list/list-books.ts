/**
 * @module .solutions/03-paginated-list/list-books
 * A solution to exercise 03: the `{ items, count, nextCursor? }` wrapper from `okList`, and an
 * opaque cursor that the tool checks before trusting it.
 */
import { defineTool } from '@mcp-workshop/mcp-server';
import { fail, okList } from '@mcp-workshop/shared';
import { z } from 'zod';
import { BOOKS } from '../../data/books.js';

/** Books per page. */
export const PAGE_SIZE = 10;

/** Cursors are a few dozen characters; this caps hostile input. */
const MAX_CURSOR_LENGTH = 100;

const input = z.object({
  author: z
    .string()
    .max(100)
    .optional()
    .describe('Only books whose author contains this text, ignoring case, e.g. "pratchett".'),
  cursor: z
    .string()
    .max(MAX_CURSOR_LENGTH)
    .optional()
    .describe('The nextCursor of the previous page, to get the page after it. Omit for the first page.'),
});

const book = z.object({
  title: z.string().describe('The title.'),
  author: z.string().describe('The author.'),
  year: z.number().int().describe('Year of first publication.'),
});

const output = z.object({
  items: z.array(book).describe('The books of this page, in library order.'),
  count: z.number().int().describe('Number of items on this page.'),
  nextCursor: z
    .string()
    .optional()
    .describe('Pass it as `cursor` to get the next page; absent on the last page.'),
});

/** The cursor is the offset as base64url JSON: opaque to the model, and checked on the way back. */
function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function decodeCursor(cursor: string): number | undefined {
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    return Number.isInteger(offset) && (offset as number) > 0 ? (offset as number) : undefined;
  } catch {
    return undefined;
  }
}

export const listBooks = defineTool({
  name: 'list_books',
  title: 'Books in the library',
  description:
    'List the books in the library, optionally only those by one author. ' +
    'Returns { items, count, nextCursor }; when nextCursor is present, call again with it as `cursor` for more.',
  input,
  output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ author, cursor }) {
    const needle = author?.toLowerCase();
    const books = BOOKS.filter((entry) => !needle || entry.author.toLowerCase().includes(needle));
    const offset = cursor === undefined ? 0 : decodeCursor(cursor);
    if (offset === undefined || offset > books.length) {
      return fail(
        'That cursor is not one list_books gave out (or the list changed). Call list_books again without a cursor to start over.',
      );
    }
    const page = books.slice(offset, offset + PAGE_SIZE);
    const next = offset + PAGE_SIZE;
    return okList(page, next < books.length ? { nextCursor: encodeCursor(next) } : {});
  },
});
