/**
 * The check for exercise 03: `list_books` returns `{ items, count, nextCursor? }` pages that the
 * official MCP client can walk from first to last.
 */
import { validateToolResult } from '@mcp-workshop/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOOKS, type Book } from '../data/books.js';
import { type Connected, connectTools, firstText } from '../test-support/mcp.js';
import { loadParticipant } from '../test-support/participant.js';

type Participant = typeof import('./starter/list-books.js');

const PAGE_SIZE = 10;
/** More pages than this means the cursor never ends. */
const MAX_PAGES = 10;

interface Page {
  items: Book[];
  count: number;
  nextCursor?: string;
}

describe('exercise 03: list_books', () => {
  let conn: Connected;
  beforeEach(async () => {
    const { listBooks } = await loadParticipant<Participant>('03-paginated-list', 'list-books.ts');
    conn = await connectTools(listBooks);
  });
  afterEach(async () => conn?.close());

  const page = async (args: Record<string, unknown>): Promise<Page> => {
    const result = await conn.client.callTool({ name: 'list_books', arguments: args });
    expect(result.isError, `list_books ${JSON.stringify(args)} failed: ${firstText(result)}`).toBe(false);
    expect(validateToolResult(result).ok, 'the result breaks the workshop result contract').toBe(true);
    return result.structuredContent as unknown as Page;
  };

  const walk = async (args: Record<string, unknown>) => {
    const pages: Page[] = [await page(args)];
    while (pages.at(-1)?.nextCursor !== undefined && pages.length < MAX_PAGES) {
      pages.push(await page({ ...args, cursor: pages.at(-1)?.nextCursor }));
    }
    expect(pages.length, 'nextCursor never stopped').toBeLessThan(MAX_PAGES);
    return pages;
  };

  it('the outputSchema is the list wrapper: items, count and an optional nextCursor', async () => {
    const { tools } = await conn.client.listTools();
    const schema = tools.find((tool) => tool.name === 'list_books')?.outputSchema as
      | { properties?: Record<string, unknown>; required?: string[] }
      | undefined;
    expect(
      Object.keys(schema?.properties ?? {}).sort(),
      'the outputSchema should have exactly items, count and nextCursor',
    ).toEqual(['count', 'items', 'nextCursor']);
    expect(schema?.required ?? [], 'nextCursor must not be required: the last page has none').not.toContain(
      'nextCursor',
    );
  });

  it('the input takes an optional cursor, described for the model', async () => {
    const { tools } = await conn.client.listTools();
    const schema = tools.find((tool) => tool.name === 'list_books')?.inputSchema;
    const cursor = schema?.properties?.cursor as { type?: string; description?: string } | undefined;
    expect(cursor?.type, 'inputSchema.properties.cursor should be a string').toBe('string');
    expect(cursor?.description ?? '', 'cursor has no .describe() text').not.toBe('');
    expect(schema?.required ?? [], 'cursor must be optional').not.toContain('cursor');
  });

  it(`the first page holds ${PAGE_SIZE} books, their count and a nextCursor`, async () => {
    const first = await page({});
    expect(first.items, 'the first page should be the first books, in order').toEqual(
      BOOKS.slice(0, PAGE_SIZE),
    );
    expect(first.count, 'count should be the number of items on the page').toBe(PAGE_SIZE);
    expect(typeof first.nextCursor, 'a next page follows, so nextCursor should be a string').toBe('string');
  });

  it('following nextCursor visits every book once, and the last page has no nextCursor', async () => {
    const pages = await walk({});
    expect(
      pages.map((entry) => entry.items.length),
      'pages of 10, 10 and 5',
    ).toEqual([10, 10, 5]);
    expect(
      pages.flatMap((entry) => entry.items),
      'the pages together should be every book, in order',
    ).toEqual(BOOKS);
    expect(pages.at(-1)?.nextCursor, 'the last page should have no nextCursor').toBeUndefined();
  });

  it('the author filter holds on every page', async () => {
    const pages = await walk({ author: 'pratchett' });
    const expected = BOOKS.filter((entry) => entry.author === 'Terry Pratchett');
    expect(
      pages.flatMap((entry) => entry.items),
      'the pages together should be every Pratchett book',
    ).toEqual(expected);
    expect(
      pages.map((entry) => entry.count),
      '11 Pratchett books: a page of 10, then 1',
    ).toEqual([10, 1]);
  });

  it('a cursor the tool did not give out is an isError result that says to start over', async () => {
    const result = await conn.client.callTool({
      name: 'list_books',
      arguments: { cursor: 'not-a-cursor' },
    });
    expect(result.isError, 'a made-up cursor should be an isError result').toBe(true);
    expect(firstText(result), 'the text should tell the model to call again without a cursor').toMatch(
      /without a cursor|start over|first page/i,
    );
  });
});
