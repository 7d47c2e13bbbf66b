/**
 * @module 03-paginated-list/starter/list-books
 * Exercise 03: `list_books { author?, cursor? }`. It returns every book at once, in a wrapper the
 * model can't page through. Edit this file; `pnpm exercise 03` checks it.
 * `services/mcp-server/src/tools/list-cities.ts` shows the wrapper; `okList` builds it.
 */
import { defineTool } from '@mcp-workshop/mcp-server';
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { BOOKS } from '../../data/books.js';

/** Books per page. */
export const PAGE_SIZE = 10;

const input = z.object({
  author: z
    .string()
    .max(100)
    .optional()
    .describe('Only books whose author contains this text, ignoring case, e.g. "pratchett".'),
  // TODO(exercise 03): an optional `cursor` (a string the previous page returned as nextCursor), described
  // for the model so it knows to pass nextCursor back to get the next page.
});

const book = z.object({
  title: z.string().describe('The title.'),
  author: z.string().describe('The author.'),
  year: z.number().int().describe('Year of first publication.'),
});

// TODO(exercise 03): the wrapper is { items, count, nextCursor? }: count is the number of items on this
// page, nextCursor is there only when another page follows.
const output = z.object({
  items: z.array(book).describe('The books, in library order.'),
});

export const listBooks = defineTool({
  name: 'list_books',
  title: 'Books in the library',
  description:
    'List the books in the library, optionally only those by one author. ' +
    'Returns { items, count, nextCursor }; when nextCursor is present, call again with it as `cursor` for more.',
  input,
  output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ author }) {
    const needle = author?.toLowerCase();
    const books = BOOKS.filter((entry) => !needle || entry.author.toLowerCase().includes(needle));
    // TODO(exercise 03): return one page of PAGE_SIZE books with okList(page, { nextCursor }).
    // The cursor is yours to design, but opaque to the model (e.g. base64url of the offset). One that
    // you did not issue is an isError result that tells the model to call again without a cursor.
    return ok({ items: books });
  },
});
