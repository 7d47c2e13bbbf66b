/**
 * @module targets/sdk-v2-floor
 * The SDK floor: the official MCP SDK v2 with the patches of patches/series.json, served the way its
 * own docs show, `createMcpHandler` behind `toNodeHandler`, with one trivial tool, `add`, and nothing
 * of this project's. The bench runs it beside a build of the SDK (sdk-builds.ts), never on the
 * installed one: pnpm installs the server's patches, which this server runs on too, but not the
 * node adapter's (03, 04, 10, 11), which only this floor uses. The ratio of the two is what this
 * project's own layers cost.
 */
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'sdk-v2-floor', version: '0.0.0' });
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  return server;
}

// `jsonText` (series patch 12), as this repository's server asks for it too, so that the floor after
// patches 11 and 12 shows what they buy; an SDK before patch 12 ignores an option it does not know.
const handler = createMcpHandler(() => buildServer(), { jsonText: true });
const listening = createServer(toNodeHandler(handler)).listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => listening.close(() => process.exit(0)));
