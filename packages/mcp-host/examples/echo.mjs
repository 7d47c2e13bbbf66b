import { startHttpHost } from '@mcp-workshop/mcp-host';
import { startStdioHost } from '@mcp-workshop/mcp-host/stdio';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const info = { name: 'echo', version: '1.0.0' };
const tool = { description: 'Says the text back.', inputSchema: z.object({ text: z.string() }) };
const echo = async ({ text }) => ({ content: [{ type: 'text', text }] });
const buildServer = () => {
  const server = new McpServer(info);
  server.registerTool('echo', tool, echo);
  return server;
};
const [mode = 'http', port = '3000'] = process.argv.slice(2);
if (mode === 'stdio') startStdioHost(buildServer);
else console.error(`echo serves ${(await startHttpHost({ buildServer, info, port: Number(port) })).mcpUrl}`);
