/**
 * @module env.test
 * `loadEnv`: MCP_TRUST_PROXY reaches express's `trust proxy` only as something express can take,
 * a hop count or a list of presets, addresses and subnets; anything else stops start-up. A leftover
 * MCP_CONFORMANCE=1 stops it too, naming the server that has the conformance fixtures now.
 */
import { EnvError } from '@mcp-workshop/shared';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../src/env.js';

describe('MCP_TRUST_PROXY', () => {
  it.each([
    ['1', '1'],
    ['10', '10'],
    ['loopback', 'loopback'],
    ['uniquelocal, 10.0.0.0/8', 'uniquelocal, 10.0.0.0/8'],
    ['::1', '::1'],
    ['fd00::/8', 'fd00::/8'],
    [
      'linklocal,192.168.1.7,::ffff:10.0.0.1,2001:db8::/128,128.0.0.0/1',
      'linklocal,192.168.1.7,::ffff:10.0.0.1,2001:db8::/128,128.0.0.0/1',
    ],
    [' loopback ', 'loopback'],
  ])('accepts %j', (value, parsed) => {
    expect(loadEnv({ MCP_TRUST_PROXY: value }).MCP_TRUST_PROXY).toBe(parsed);
  });

  it('stays unset when empty', () => {
    expect(loadEnv({ MCP_TRUST_PROXY: '' }).MCP_TRUST_PROXY).toBeUndefined();
  });

  it.each([
    'true',
    'foo',
    '999.1.1.1',
    '10.0.0.0/33',
    '::/129',
    '0.0.0.0/0',
    '::/0',
    '10.0.0.0/',
    '10.0.0.0/8/8',
    'fe80::1%eth0',
    '0',
    '11',
    '-1',
    '1.5',
    'loopback,',
    'loopback, 1',
    'loopback\nuniquelocal',
    '1\n',
  ])('refuses %j, naming the variable and what it accepts', (value) => {
    const load = () => loadEnv({ MCP_TRUST_PROXY: value });
    expect(load).toThrow(EnvError);
    expect(load).toThrow(/MCP_TRUST_PROXY=.*hop count from 1 to 10.*loopback, linklocal, uniquelocal/);
  });

  it('refuses an oversized value and quotes only its start', () => {
    const value = `loopback,${'10.0.0.1,'.repeat(1200)}10.0.0.1`;
    expect(value.length).toBeGreaterThan(10_000);
    const error = (() => {
      try {
        loadEnv({ MCP_TRUST_PROXY: value });
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('accepted an oversized MCP_TRUST_PROXY');
    })();
    expect(error).toBeInstanceOf(EnvError);
    expect(error.message).toMatch(/MCP_TRUST_PROXY=.*characters\)/);
    expect(error.message.length).toBeLessThan(1000);
  });
});

describe('per-client shares under the global caps', () => {
  it('leaves a share unset for the host to derive from its cap (empty counts as unset)', () => {
    const env = loadEnv({ MCP_MAX_SESSIONS: '20', MCP_MAX_STREAMS_PER_CLIENT: '' });
    expect(env.MCP_MAX_SESSIONS_PER_CLIENT).toBeUndefined();
    expect(env.MCP_MAX_STREAMS_PER_CLIENT).toBeUndefined();
  });

  it('accepts a share up to its cap', () => {
    const env = loadEnv({ MCP_MAX_SESSIONS: '20', MCP_MAX_SESSIONS_PER_CLIENT: '20' });
    expect(env.MCP_MAX_SESSIONS_PER_CLIENT).toBe(20);
  });

  it.each([
    [
      { MCP_MAX_SESSIONS: '20', MCP_MAX_SESSIONS_PER_CLIENT: '50' },
      'MCP_MAX_SESSIONS_PER_CLIENT',
      'MCP_MAX_SESSIONS=20',
    ],
    [
      { MCP_MAX_STREAMS: '8', MCP_MAX_STREAMS_PER_CLIENT: '16' },
      'MCP_MAX_STREAMS_PER_CLIENT',
      'MCP_MAX_STREAMS=8',
    ],
  ])('refuses a share above its cap at start, naming both settings: %j', (source, share, cap) => {
    expect(() => loadEnv(source)).toThrow(EnvError);
    expect(() => loadEnv(source)).toThrow(share);
    expect(() => loadEnv(source)).toThrow(cap);
  });
});

describe('MCP_CONFORMANCE', () => {
  it('is off by default and when false', () => {
    expect(loadEnv({}).MCP_CONFORMANCE).toBe(false);
    expect(loadEnv({ MCP_CONFORMANCE: 'false' }).MCP_CONFORMANCE).toBe(false);
  });

  it.each(['1', 'true'])('is on for %j (main.ts then starts dev/conformance-server)', (value) => {
    expect(loadEnv({ MCP_CONFORMANCE: value }).MCP_CONFORMANCE).toBe(true);
  });
});

describe('MCP_STALLED_RESPONSE_SECONDS', () => {
  it('stays unset for the host to use its own default, and takes whole seconds from 1 to 3600', () => {
    expect(loadEnv({}).MCP_STALLED_RESPONSE_SECONDS).toBeUndefined();
    expect(loadEnv({ MCP_STALLED_RESPONSE_SECONDS: '5' }).MCP_STALLED_RESPONSE_SECONDS).toBe(5);
  });

  it.each(['0', '-1', '1.5', '3601', 'soon'])('refuses %j at start, naming the setting', (value) => {
    expect(() => loadEnv({ MCP_STALLED_RESPONSE_SECONDS: value })).toThrow(EnvError);
    expect(() => loadEnv({ MCP_STALLED_RESPONSE_SECONDS: value })).toThrow('MCP_STALLED_RESPONSE_SECONDS');
  });
});
