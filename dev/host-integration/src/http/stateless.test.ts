import { MCP_HEADERS, readMessages } from '@mcp-workshop/test-infra';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';

describe('stateless mode (MCP_STATELESS=true)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ stateless: true });
  });
  afterAll(async () => srv.close());

  it('answers initialize without issuing a session id', async () => {
    const response = await fetch(srv.mcpUrl, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 's', version: '0' } },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const [message] = await readMessages(response);
    expect(message?.result?.protocolVersion).toBe('2025-06-18');
  });

  it('serves a tools/call with no session at all, as a load-balanced replica must', async () => {
    const response = await fetch(srv.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'calculate', arguments: { expression: '6 * 7' } },
      }),
    });
    // Log notifications may come first on the stream; the answer is the message with our id.
    const message = (await readMessages(response)).find((m) => m.id === 2);
    expect(message?.result?.structuredContent).toMatchObject({ result: 42 });
    expect(srv.app.sessions).toBeUndefined();
  });

  it('works with the official client in both eras', async () => {
    for (const mode of ['legacy', 'auto'] as const) {
      const client = new Client({ name: 'stateless', version: '0' }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl)));
      const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Bergen' } });
      expect(result.isError).toBe(false);
      await client.close();
    }
  });

  it('answers GET /mcp with 405, since there is no session to stream', async () => {
    const response = await fetch(srv.mcpUrl, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
  });
});
