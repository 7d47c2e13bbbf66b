/**
 * @module http/json-rpc-errors
 * HTTP-level failures answered in JSON-RPC's error shape, so MCP clients can read them.
 * `id` is null unless the caller knows the request's id: most of these happen before (or
 * instead of) reading one.
 */
import { isPlainObject } from '@mcp-workshop/shared';
import type { ErrorRequestHandler, Response } from 'express';

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

/** Maps body-parser failures (bad JSON, too large, too deep) to the answers the MCP spec and clients expect. */
export function bodyErrorHandler(limitLabel: string): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    const type = typeof error === 'object' && error !== null && 'type' in error ? String(error.type) : '';
    if (res.headersSent) return next(error);
    if (type === 'entity.too.large') {
      return sendJsonRpcError(res, 413, -32600, `Request body too large: the limit is ${limitLabel}.`);
    }
    if (type === 'entity.too.deep') {
      return sendJsonRpcError(res, 400, -32600, (error as Error).message);
    }
    if (type === 'entity.parse.failed') {
      return sendJsonRpcError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
    }
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      return sendJsonRpcError(res, 415, -32600, 'Unsupported body encoding: send UTF-8 JSON.');
    }
    return next(error);
  };
}
