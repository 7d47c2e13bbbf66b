/**
 * @module in-process
 * Connects the official MCP client to a server in the same process, over the SDK's linked
 * in-memory transport: real protocol messages, real validation, no socket. The curl path
 * (`/tools`), the tests and the exercises all connect this way. With sign-in on, pass the HTTP
 * request's verified token as `authInfo`: the tools read the caller's own tasks and check scopes
 * from it, and without it they would act on the shared list of a server with sign-in off.
 */
import { Client } from '@modelcontextprotocol/client';
import { type AuthInfo, InMemoryTransport, type McpServer } from '@modelcontextprotocol/server';

export interface InProcessConnection {
  client: Client;
  /** Closes the client, then the server. */
  close(): Promise<void>;
}

/**
 * Connects `client` to `server`. Pass your own client to set capabilities or request handlers
 * (elicitation, logging) before it connects; otherwise a plain one is made. With `authInfo`, every
 * message reaches the server as if over HTTP with that token (`ctx.http.authInfo`).
 */
export async function connectInProcess(
  server: McpServer,
  client: Client = new Client({ name: 'in-process-client', version: '0.0.0' }),
  authInfo?: AuthInfo,
): Promise<InProcessConnection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  if (authInfo) {
    // The SDK's in-memory transport hands `authInfo` to the server as a transport's extra info.
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => send(message, { ...options, authInfo });
  }
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

export type { RawRpc } from './raw-rpc.js';
export { connectRaw, rawConnections } from './raw-rpc.js';
