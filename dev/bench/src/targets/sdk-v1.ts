/**
 * @module targets/sdk-v1
 * A reference: the official MCP SDK v1 (`@modelcontextprotocol/sdk`), the way its own examples
 * serve Streamable HTTP with sessions and JSON responses, with one trivial tool, `add`.
 */
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import express from 'express';
import { z } from 'zod';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'sdk-v1-reference', version: '0.0.0' });
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  return server;
}

const transports = new Map<string, StreamableHTTPServerTransport>();
const app = express();
app.use(express.json());
app.post('/mcp', async (req, res) => {
  const sessionId = req.header('mcp-session-id');
  const existing = sessionId ? transports.get(sessionId) : undefined;
  if (existing) {
    await existing.handleRequest(req, res, req.body);
    return;
  }
  if (sessionId || !isInitializeRequest(req.body)) {
    res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad session' } });
    return;
  }
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: true,
    onsessioninitialized: (id) => {
      transports.set(id, transport);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId) transports.delete(transport.sessionId);
  };
  await buildServer().connect(transport);
  await transport.handleRequest(req, res, req.body);
});
const listening = app.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => listening.close(() => process.exit(0)));
