/**
 * @module demo-server
 * `pnpm demo:server`: starts the workshop catalogue on a free local port with a throw-away task database,
 * connects the official MCP client over Streamable HTTP, and prints a few tool calls so you can
 * see `content`, `structuredContent` and `isError` on the wire. Offline; exits 0 when done.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@mcp-workshop/mcp-host/logger';
import { startCatalogue } from '@mcp-workshop/mcp-host/run';
import workshop from '@mcp-workshop/mcp-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const CALLS = [
  { why: 'an object result', name: 'get_weather', arguments: { location: 'Oslo', days: 2 } },
  { why: 'a list, wrapped in an object', name: 'list_cities', arguments: { country: 'Norway' } },
  { why: 'a calculation', name: 'calculate', arguments: { expression: '(2 + 3) * 4 ^ 2' } },
  {
    why: 'a write to the task database',
    name: 'add_task',
    arguments: { title: 'Bring a raincoat to Bergen' },
  },
  { why: 'an error the model can act on', name: 'get_weather', arguments: { location: 'Osloo' } },
];

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mcp-workshop-demo-'));
  const server = await startCatalogue(workshop, {
    env: { DATA_DIR: dataDir },
    logger: createLogger('warn'),
    sessionTtlSeconds: 60,
    maxSessions: 10,
  });
  const url = server.mcpUrl;
  const client = new Client(
    { name: 'workshop-demo', version: '0.1.0' },
    { versionNegotiation: { mode: 'auto' } },
  );

  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    console.log(
      `MCP server: ${url}  (protocol ${client.getNegotiatedProtocolVersion()}, offline weather data)`,
    );
    const { tools } = await client.listTools();
    console.log(`\ntools/list → ${tools.length} tools: ${tools.map((tool) => tool.name).join(', ')}`);
    for (const call of CALLS) {
      const result = await client.callTool({ name: call.name, arguments: call.arguments });
      console.log(`\n── ${call.name} ${JSON.stringify(call.arguments)}  (${call.why})`);
      console.log(`   isError: ${result.isError}`);
      if (result.structuredContent !== undefined) {
        console.log(`   structuredContent: ${truncate(JSON.stringify(result.structuredContent), 300)}`);
      }
      for (const block of result.content) {
        if (block.type === 'text') console.log(`   content[text]: ${truncate(block.text, 300)}`);
      }
    }
    console.log('\nThe same call with curl, against a running server (pnpm start):');
    console.log(
      `  curl -s -X POST http://127.0.0.1:3000/tools/get_weather -H 'content-type: application/json' -d '{"location":"Oslo"}'`,
    );
  } finally {
    await client.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
