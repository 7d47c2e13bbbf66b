/**
 * @module http/json-depth
 * Rejects JSON nested deeper than any real MCP message needs. V8 parses deep JSON happily, but
 * the recursive code after it (schema validation, `JSON.stringify`) overflows the stack, which
 * would turn a hostile body into a 500. The check reads the raw bytes before they are parsed
 * (express.json's `verify` hook): one pass, no allocation, and a deep body is never parsed at all.
 */

/** Real messages nest a dozen levels at most (params → arguments → a schema); 64 leaves plenty of room. */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest object/array nesting in JSON text, counting `{}` and `[]` outside strings; stops
 * counting once past `stopAt`. Scalars are 0, `{}` is 1. For text that is not valid JSON the
 * figure is meaningless, but the parser rejects such text anyway.
 */
export function jsonTextDepth(bytes: Uint8Array, stopAt = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAt) return deepest;
      }
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return deepest;
}

/** The error express.json's `verify` throws; `bodyErrorHandler` answers it with a JSON-RPC 400. */
export class JsonTooDeepError extends Error {
  readonly type = 'entity.too.deep';
  readonly status = 400;
  constructor() {
    super(`Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels.`);
    this.name = new.target.name;
  }
}

/** For express.json's `verify` option: throws before the body is parsed. */
export function verifyJsonDepth(_req: unknown, _res: unknown, body: Buffer): void {
  if (jsonTextDepth(body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new JsonTooDeepError();
}
