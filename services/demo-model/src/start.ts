/**
 * @module start
 * Starts the offline demo model (`server.ts`) on a port and returns its base URL for the
 * `openai` client. The only file of the demo model that does I/O.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DemoModelEnv } from './env.js';
import { createDemoModelApp } from './server.js';

export interface StartDemoModelOptions {
  /** Interface to listen on; defaults to loopback, since only this machine should talk to it. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Pause between stream events, in ms; see `DEFAULT_CHUNK_DELAY_MS`. */
  chunkDelayMs?: number;
  /** The clock; see `DemoModelAppOptions.now`. Defaults to the real time. */
  now?: () => Date;
}

export interface RunningDemoModel {
  /** Base URL for the `openai` client, ending in `/v1`, e.g. "http://127.0.0.1:41234/v1". */
  url: string;
  close(): Promise<void>;
}

/** What the entry (`index.ts`) starts from its validated environment. */
export function startOptionsFromEnv(env: DemoModelEnv): StartDemoModelOptions {
  return {
    host: env.DEMO_MODEL_HOST,
    port: env.DEMO_MODEL_PORT,
    chunkDelayMs: env.DEMO_MODEL_CHUNK_DELAY_MS,
  };
}

/** A host the client can dial: a wildcard address is reached through loopback. */
function dialableHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return address.includes(':') ? `[${address}]` : address;
}

/** Listens, and resolves once the port is bound (or rejects, e.g. when the port is taken). */
export async function startDemoModel(options: StartDemoModelOptions = {}): Promise<RunningDemoModel> {
  const server = createServer(
    createDemoModelApp({
      ...(options.chunkDelayMs === undefined ? {} : { chunkDelayMs: options.chunkDelayMs }),
      ...(options.now === undefined ? {} : { now: options.now }),
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${dialableHost(address)}:${port}/v1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Streams and keep-alive sockets would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
