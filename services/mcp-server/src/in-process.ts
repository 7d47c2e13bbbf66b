/**
 * @module in-process
 * Connects the official MCP client to a server in the same process, over the SDK's linked
 * in-memory transport: real protocol messages, real validation, no socket. The curl path
 * (`/tools`), the tests and the exercises all connect this way.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, type McpServer } from '@modelcontextprotocol/server';

export interface InProcessConnection {
  client: Client;
  /** Closes the client, then the server. */
  close(): Promise<void>;
}

/**
 * Connects `client` to `server`. Pass your own client to set capabilities or request handlers
 * (elicitation, logging) before it connects; otherwise a plain one is made.
 */
export async function connectInProcess(
  server: McpServer,
  client: Client = new Client({ name: 'in-process-client', version: '0.0.0' }),
): Promise<InProcessConnection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}
