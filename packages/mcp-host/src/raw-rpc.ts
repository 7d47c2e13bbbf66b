/**
 * @module raw-rpc
 * Talks JSON-RPC to a server over the SDK's in-memory transport with no client in between, so a
 * test sees results exactly as the server produced them: the bytes a transport would serialise,
 * and the very objects (the in-memory transport passes them by reference). The official client
 * re-parses results, which can reorder keys and hides sharing. For tests; exported with `connectInProcess`.
 */
import { InMemoryTransport, type JSONRPCMessage, type McpServer } from '@modelcontextprotocol/server';

/** How long a test waits for one answer before failing, instead of hanging the run. */
const ANSWER_TIMEOUT_MS = 5_000;

export interface RawRpc {
  /** Sends a request and resolves with its `result`; a JSON-RPC error rejects. */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Connects to `server` and completes a 2025-11-25 handshake. */
export async function connectRaw(server: McpServer): Promise<RawRpc> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<number, (message: JSONRPCMessage) => void>();
  clientSide.onmessage = (message) => {
    const id = 'id' in message && typeof message.id === 'number' ? message.id : undefined;
    if (id !== undefined) waiting.get(id)?.(message);
  };
  await server.connect(serverSide);
  await clientSide.start();
  let nextId = 0;
  const request: RawRpc['request'] = (method, params = {}) => {
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method}`)), ANSWER_TIMEOUT_MS);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        waiting.delete(id);
        if ('result' in message) resolve(message.result as Record<string, unknown>);
        else reject(new Error(`${method} failed: ${JSON.stringify(message)}`));
      });
      clientSide.send({ jsonrpc: '2.0', id, method, params }).catch(reject);
    });
  };
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw-rpc', version: '0.0.0' },
  });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    request,
    async close() {
      await clientSide.close();
      await server.close();
    },
  };
}

/**
 * Raw connections for one describe block: `connect` opens one as `connectRaw` does and keeps it,
 * `closeAll` (in an afterEach) closes every one opened since.
 */
export function rawConnections(): {
  connect(server: McpServer): Promise<RawRpc>;
  closeAll(): Promise<void>;
} {
  const open: RawRpc[] = [];
  return {
    async connect(server) {
      const rpc = await connectRaw(server);
      open.push(rpc);
      return rpc;
    },
    async closeAll() {
      for (const rpc of open.splice(0)) await rpc.close();
    },
  };
}
