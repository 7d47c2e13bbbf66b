/**
 * @module http/tool-routes
 * The curl path: `GET /tools` and `POST /tools/:name`. It is not a second
 * implementation: each request connects the official MCP client to a fresh server instance
 * in-process and asks it over MCP, so the answer is exactly what `tools/list` or `tools/call`
 * returns on `/mcp`, validation and error handling included.
 */
import { isPlainObject } from '@mcp-workshop/shared';
import type { Client } from '@modelcontextprotocol/client';
import type { AuthInfo, McpServer } from '@modelcontextprotocol/server';
import { Router } from 'express';
import type { Logger } from '../logger.js';

/** `tools/list` pages are read until the end, but never more than this many (a server bug must not loop forever). */
const MAX_LIST_PAGES = 100;
const INVALID_PARAMS = -32602;

/**
 * The official client and the in-process connection, loaded on the first curl-path request: the
 * client SDK is as large as the server's, and `/mcp` never needs it, so a cold start skips it.
 */
let clientSide:
  | Promise<[typeof import('@modelcontextprotocol/client'), typeof import('../in-process.js')]>
  | undefined;
function loadClientSide() {
  clientSide ??= Promise.all([import('@modelcontextprotocol/client'), import('../in-process.js')]);
  return clientSide;
}

/**
 * Runs `use` on a fresh in-process connection that carries the caller's verified token, so the
 * tools see who is asking (whose data, which scopes) exactly as they do on `/mcp`.
 */
async function withClient<T>(
  buildServer: () => McpServer,
  version: string,
  authInfo: AuthInfo | undefined,
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const [{ Client }, { connectInProcess }] = await loadClientSide();
  const connection = await connectInProcess(
    buildServer(),
    new Client({ name: 'mcp-host-curl-path', version }),
    authInfo,
  );
  try {
    return await use(connection.client);
  } finally {
    await connection.close();
  }
}

export function createToolRoutes(buildServer: () => McpServer, logger: Logger, version: string): Router {
  const router = Router();

  router.get('/tools', async (req, res, next) => {
    try {
      const tools = await withClient(buildServer, version, req.auth, async (client) => {
        const all = [];
        let cursor: string | undefined;
        for (let page = 0; page < MAX_LIST_PAGES; page++) {
          const result = await client.listTools(cursor ? { cursor } : undefined);
          all.push(...result.tools);
          cursor = result.nextCursor;
          if (!cursor) break;
        }
        return all;
      });
      res.json({ tools });
    } catch (error) {
      next(error);
    }
  });

  router.post('/tools/:name', async (req, res, next) => {
    // No body at all means no arguments; a body that is not an object (null, a string, a list) is a mistake.
    const args: unknown = req.body === undefined ? {} : req.body;
    if (!isPlainObject(args)) {
      res.status(400).json({
        error: {
          code: INVALID_PARAMS,
          message: 'The request body must be a JSON object of tool arguments, e.g. {"location":"Oslo"}.',
        },
      });
      return;
    }
    try {
      const result = await withClient(buildServer, version, req.auth, (client) =>
        client.callTool({ name: req.params.name, arguments: args }),
      );
      res.json(result);
    } catch (error) {
      // Loaded already: `withClient` awaited it before anything could throw a protocol error.
      const [{ ProtocolError }] = await loadClientSide();
      if (error instanceof ProtocolError) {
        // The same JSON-RPC error /mcp would send (e.g. -32602 for an unknown tool), under a fitting HTTP status.
        const status = error.code === INVALID_PARAMS && /not found/i.test(error.message) ? 404 : 400;
        res.status(status).json({ error: { code: error.code, message: error.message } });
        return;
      }
      logger.error({ err: error, tool: req.params.name }, 'curl path failed');
      next(error);
    }
  });

  return router;
}
