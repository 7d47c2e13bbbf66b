import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { MAX_IDLE_SERVERS, ServerPool } from './server-pool.js';

const build = () => new McpServer({ name: 'pool-test', version: '0' });

describe('ServerPool', () => {
  it('lends an idle instance again instead of building a new one', () => {
    const pool = new ServerPool(build);
    const first = pool.acquire();
    pool.release(first);
    expect(pool.acquire()).toBe(first);
    expect(pool.stats()).toEqual({ built: 1, idle: 0 });
  });

  it('gives concurrent borrowers different instances', () => {
    const pool = new ServerPool(build);
    const a = pool.acquire();
    const b = pool.acquire();
    expect(a).not.toBe(b);
    expect(pool.stats().built).toBe(2);
  });

  it('keeps at most its idle limit and lets the rest go', () => {
    const pool = new ServerPool(build, 2);
    const lent = [pool.acquire(), pool.acquire(), pool.acquire()];
    for (const server of lent) pool.release(server);
    expect(pool.stats().idle).toBe(2);
    expect(MAX_IDLE_SERVERS).toBeGreaterThan(0);
  });

  it('keeps every instance of a warm load of 100 concurrent requests, so it builds no more', () => {
    // The bench's 50 connections used to overflow a limit of 32: the pool built servers all along.
    const pool = new ServerPool(build);
    for (let round = 0; round < 3; round++) {
      const lent = Array.from({ length: 100 }, () => pool.acquire());
      for (const server of lent) pool.release(server);
    }
    expect(pool.stats()).toEqual({ built: 100, idle: 100 });
  });

  it('refuses an instance that is still connected to an exchange', async () => {
    const pool = new ServerPool(build);
    const server = pool.acquire();
    const { InMemoryTransport } = await import('@modelcontextprotocol/server');
    const [serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    pool.release(server);
    expect(pool.stats().idle).toBe(0);
    await server.close();
    pool.release(server);
    expect(pool.stats().idle).toBe(1);
  });
});
