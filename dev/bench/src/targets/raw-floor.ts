/**
 * @module targets/raw-floor
 * The floor: plain `node:http` answering every JSON-RPC request with a fixed result, a
 * `CallToolResult` for `tools/call` and an `InitializeResult` for `initialize`. No MCP library and
 * no validation, so nothing real can be faster; every other target is measured against it.
 */
import { createServer } from 'node:http';

const CALL_RESULT = {
  content: [{ type: 'text', text: '{"result":5}' }],
  structuredContent: { result: 5 },
  isError: false,
};
const INITIALIZE_RESULT = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: {} },
  serverInfo: { name: 'raw-floor', version: '0.0.0' },
};

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let id: unknown = null;
    let method = '';
    try {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method?: string };
      id = message.id ?? null;
      method = message.method ?? '';
    } catch {
      res.writeHead(400).end();
      return;
    }
    const result = method === 'initialize' ? INITIALIZE_RESULT : CALL_RESULT;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
