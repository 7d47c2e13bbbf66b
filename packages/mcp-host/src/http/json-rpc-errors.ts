/**
 * @module http/json-rpc-errors
 * HTTP-level failures answered in JSON-RPC's error shape, so MCP clients can read them.
 * `id` is null unless the caller knows the request's id: most of these happen before (or
 * instead of) reading one.
 */
import { isPlainObject } from '@mcp-workshop/shared';
import type { Response } from 'express';

/** The `id` of a single JSON-RPC request body, for an error answered in its place; null otherwise. */
export function requestIdOf(body: unknown): string | number | null {
  if (!isPlainObject(body)) return null;
  const { id } = body;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

export function sendJsonRpcError(
  res: Response,
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id });
}
