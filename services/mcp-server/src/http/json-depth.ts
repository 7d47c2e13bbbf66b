/**
 * @module http/json-depth
 * Rejects JSON nested deeper than any real MCP message needs. V8 parses deep JSON happily, but
 * the recursive code after it (schema validation, `JSON.stringify`) overflows the stack, which
 * would turn a hostile body into a 500.
 */
import type { RequestHandler } from 'express';
import { sendJsonRpcError } from './json-rpc-errors.js';

/** Real messages nest a dozen levels at most (params → arguments → a schema); 64 leaves plenty of room. */
export const MAX_JSON_DEPTH = 64;

/** The nesting depth of a parsed JSON value, computed without recursion so it cannot overflow itself. */
export function jsonDepth(value: unknown, stopAt = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > stopAt) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export const rejectDeepJson: RequestHandler = (req, res, next) => {
  if (req.body !== undefined && jsonDepth(req.body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    sendJsonRpcError(res, 400, -32600, `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels.`);
    return;
  }
  next();
};
