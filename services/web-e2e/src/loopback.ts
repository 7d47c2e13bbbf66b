/**
 * @module loopback
 * Every server these tests start themselves (the agent's page and sandbox, the test host, fixtures,
 * counting targets) listens on 127.0.0.1 at a port the OS picks, and closes with its keep-alive
 * connections, so a test's end is never held up by an idle browser socket.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  server: Server;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  close(): Promise<void>;
}

export async function listenLoopback(handler: RequestListener): Promise<LoopbackServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    server,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
