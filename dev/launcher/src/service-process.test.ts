import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@mcp-workshop/shared/processes';
import { afterEach, describe, expect, it } from 'vitest';
import { answersOk } from './service-process.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A loopback server that answers every request with `status`, or never answers when undefined. */
async function serve(status: number | undefined): Promise<string> {
  const server = createServer((_req, res) => {
    if (status !== undefined) res.writeHead(status).end('{}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
}

describe('answersOk', () => {
  it('is true for a 2xx answer', async () => {
    expect(await answersOk(await serve(200))).toBe(true);
    expect(await answersOk(await serve(204))).toBe(true);
  });

  it('is false for an error status, and when nothing listens', async () => {
    expect(await answersOk(await serve(503))).toBe(false);
    expect(await answersOk(`http://127.0.0.1:${await freePort()}/health`)).toBe(false);
  });

  it('gives up on a server that accepts but never answers, so the next poll can ask again', async () => {
    expect(await answersOk(await serve(undefined), 50)).toBe(false);
  });
});
