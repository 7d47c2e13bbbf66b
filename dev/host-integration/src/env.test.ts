/**
 * @module env.test
 * The host's settings as a catalogue gets them (`loadRunEnv` with the workshop's own): MCP_TRUST_PROXY
 * reaches express's `trust proxy` only as something express can take, a hop count or a list of
 * presets, addresses and subnets, and anything else stops start-up; the per-client shares stay under
 * their global caps; MCP_STALLED_RESPONSE_SECONDS takes whole seconds.
 */
import { EnvError } from '@mcp-workshop/shared';
import { describe, expect, it } from 'vitest';
import { loadWorkshopEnv } from './test-support/workshop.js';

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
    expect(loadWorkshopEnv({ MCP_TRUST_PROXY: value }).MCP_TRUST_PROXY).toBe(parsed);
  });

  it('stays unset when empty', () => {
    expect(loadWorkshopEnv({ MCP_TRUST_PROXY: '' }).MCP_TRUST_PROXY).toBeUndefined();
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
    const load = () => loadWorkshopEnv({ MCP_TRUST_PROXY: value });
    expect(load).toThrow(EnvError);
    expect(load).toThrow(/MCP_TRUST_PROXY=.*hop count from 1 to 10.*loopback, linklocal, uniquelocal/);
  });

  it('refuses an oversized value and quotes only its start', () => {
    const value = `loopback,${'10.0.0.1,'.repeat(1200)}10.0.0.1`;
    expect(value.length).toBeGreaterThan(10_000);
    const error = (() => {
      try {
        loadWorkshopEnv({ MCP_TRUST_PROXY: value });
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
    const env = loadWorkshopEnv({ MCP_MAX_SESSIONS: '20', MCP_MAX_STREAMS_PER_CLIENT: '' });
    expect(env.MCP_MAX_SESSIONS_PER_CLIENT).toBeUndefined();
    expect(env.MCP_MAX_STREAMS_PER_CLIENT).toBeUndefined();
  });

  it('accepts a share up to its cap', () => {
    const env = loadWorkshopEnv({ MCP_MAX_SESSIONS: '20', MCP_MAX_SESSIONS_PER_CLIENT: '20' });
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
    expect(() => loadWorkshopEnv(source)).toThrow(EnvError);
    expect(() => loadWorkshopEnv(source)).toThrow(share);
    expect(() => loadWorkshopEnv(source)).toThrow(cap);
  });
});

describe('MCP_STALLED_RESPONSE_SECONDS', () => {
  it('stays unset for the host to use its own default, and takes whole seconds from 1 to 3600', () => {
    expect(loadWorkshopEnv({}).MCP_STALLED_RESPONSE_SECONDS).toBeUndefined();
    expect(loadWorkshopEnv({ MCP_STALLED_RESPONSE_SECONDS: '5' }).MCP_STALLED_RESPONSE_SECONDS).toBe(5);
  });

  it.each(['0', '-1', '1.5', '3601', 'soon'])('refuses %j at start, naming the setting', (value) => {
    expect(() => loadWorkshopEnv({ MCP_STALLED_RESPONSE_SECONDS: value })).toThrow(EnvError);
    expect(() => loadWorkshopEnv({ MCP_STALLED_RESPONSE_SECONDS: value })).toThrow(
      'MCP_STALLED_RESPONSE_SECONDS',
    );
  });
});
