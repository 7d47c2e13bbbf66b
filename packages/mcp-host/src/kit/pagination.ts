/**
 * @module server/pagination
 * Cursor pagination for `tools/list`, `resources/list`, `resources/templates/list` and
 * `prompts/list`. The cursor is opaque to clients (base64url of an offset); a cursor this server
 * did not issue gets -32602, as the spec says it should.
 */
import { type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** Default page size: big enough that the workshop's lists fit on one page. */
export const DEFAULT_PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export function paginate<T>(all: readonly T[], cursor: string | undefined, pageSize: number): Page<T> {
  const start = cursor === undefined ? 0 : decodeCursor(cursor);
  if (start > all.length) throw invalidCursor(cursor);
  const end = start + pageSize;
  const items = all.slice(start, end);
  return end < all.length ? { items, nextCursor: encodeCursor(end) } : { items };
}

function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1]) throw invalidCursor(cursor);
  return Number(match[1]);
}

function invalidCursor(cursor: string | undefined): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid cursor ${JSON.stringify(cursor)}: pass back the nextCursor of the previous page unchanged.`,
  );
}

type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';
const LIST_KEYS = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
} as const satisfies Record<ListMethod, string>;

type StoredHandler = (request: unknown, ctx: unknown) => Promise<Record<string, unknown>>;

/**
 * Makes one of `McpServer`'s list methods page its answer with `nextCursor`. The SDK builds the
 * full list (schema conversion and all) but never paginates it, so we take the handler it
 * installed, ask it for everything, and cut the page. Reaching the installed handler needs the
 * SDK's private handler map; this is the one place that does, so an SDK change breaks here loudly.
 */
export function paginateList(server: McpServer, method: ListMethod, pageSize: number): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, StoredHandler> })
    ._requestHandlers;
  const original = handlers?.get(method);
  if (!original) throw new Error(`paginateList: no ${method} handler installed yet; register items first`);
  const key = LIST_KEYS[method];
  server.server.setRequestHandler(method, async (request, ctx) => {
    const cursor = request.params?.cursor;
    const full = await original({ ...request, params: { ...request.params, cursor: undefined } }, ctx);
    const items = Array.isArray(full[key]) ? (full[key] as unknown[]) : [];
    const page = paginate(items, cursor, pageSize);
    const { nextCursor: _ignored, ...rest } = full;
    return {
      ...rest,
      [key]: page.items,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    } as never;
  });
}
