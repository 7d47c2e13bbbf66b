/**
 * The environment of the development authorization server: the published defaults are fine on
 * loopback and refused anywhere else, with one message that names every setting to change.
 */
import { describe, expect, it } from 'vitest';
import {
  AUTH_SERVER_ENV_KEYS,
  AUTH_SERVER_SECRET_KEYS,
  EnvError,
  isLoopbackHost,
  loadAuthServerEnv,
  PUBLISHED_DEFAULTS,
} from './env.js';

/** Secrets of one's own, as a participant would put them in .env. */
const OWN = {
  AUTH_AGENT_CLIENT_SECRET: 'k3Jx9-agent-0f8e2b7c41d6',
  AUTH_READER_CLIENT_SECRET: 'p2Qw7-reader-9a1c5e3f08b2',
  AUTH_DEMO_PASSWORD: 'correct horse battery',
  AUTH_GUEST_PASSWORD: 'staple guest lantern',
};

function refusal(source: Record<string, string>): string {
  try {
    loadAuthServerEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).message;
  }
  throw new Error('loadAuthServerEnv accepted the environment');
}

describe('loadAuthServerEnv', () => {
  it.each(['127.0.0.1', '127.0.0.2', '127.255.10.1', '::1', 'localhost'])(
    'starts with every published default on loopback (%s)',
    (host) => {
      const env = loadAuthServerEnv({ AUTH_HOST: host });
      expect(env).toMatchObject({
        AUTH_HOST: host,
        ...PUBLISHED_DEFAULTS,
        AUTH_LOGIN_ATTEMPTS_PER_MINUTE: 10,
      });
    },
  );

  it('binds to loopback unless told otherwise', () => {
    expect(loadAuthServerEnv({}).AUTH_HOST).toBe('127.0.0.1');
  });

  it.each(['0.0.0.0', '::', '192.0.2.10', 'auth-server'])(
    'refuses %s with the defaults, naming every setting and what to do',
    (host) => {
      const message = refusal({ AUTH_HOST: host });
      expect(message).toContain(`AUTH_HOST=${host}`);
      for (const key of AUTH_SERVER_SECRET_KEYS) expect(message).toContain(`set ${key} to`);
      expect(message).toContain('set AUTH_DEMO_PASSWORD to a password of your own');
      expect(message).toContain('set AUTH_AGENT_CLIENT_SECRET to a random secret of your own');
      expect(message).toContain('AUTH_HOST=127.0.0.1');
    },
  );

  it.each(AUTH_SERVER_SECRET_KEYS)('refuses 0.0.0.0 while only %s is still its default', (key) => {
    const message = refusal({ ...OWN, [key]: '', AUTH_HOST: '0.0.0.0' });
    expect(message).toContain(`${key} is a published default`);
    for (const other of AUTH_SERVER_SECRET_KEYS.filter((k) => k !== key))
      expect(message).not.toContain(other);
  });

  it('refuses a published default under another setting too', () => {
    const message = refusal({ ...OWN, AUTH_DEMO_PASSWORD: 'workshop-agent-secret', AUTH_HOST: '0.0.0.0' });
    expect(message).toContain('AUTH_DEMO_PASSWORD is a published default');
  });

  it('refuses weak replacements off loopback without echoing them', () => {
    const message = refusal({
      ...OWN,
      AUTH_AGENT_CLIENT_SECRET: 'fifteen-chars-x',
      AUTH_DEMO_PASSWORD: 'hunter2hunt',
      AUTH_HOST: '0.0.0.0',
    });
    expect(message).toContain('AUTH_AGENT_CLIENT_SECRET is shorter than 16 characters');
    expect(message).toContain('AUTH_DEMO_PASSWORD is shorter than 12 characters');
    expect(message).not.toContain('fifteen-chars-x');
    expect(message).not.toContain('hunter2hunt');
    expect(message).not.toContain('AUTH_READER_CLIENT_SECRET');
  });

  it('accepts secrets of your own off loopback', () => {
    const env = loadAuthServerEnv({ ...OWN, AUTH_HOST: '0.0.0.0' });
    expect(env).toMatchObject({ ...OWN, AUTH_HOST: '0.0.0.0' });
  });

  it('reads the login limit, and refuses a limit of none or junk', () => {
    expect(loadAuthServerEnv({ AUTH_LOGIN_ATTEMPTS_PER_MINUTE: '25' }).AUTH_LOGIN_ATTEMPTS_PER_MINUTE).toBe(
      25,
    );
    for (const bad of ['0', '-1', 'ten', '1.5', '100000'])
      expect(() => loadAuthServerEnv({ AUTH_LOGIN_ATTEMPTS_PER_MINUTE: bad })).toThrow(EnvError);
  });

  it('lists every variable it reads, for check-compose', () => {
    expect(AUTH_SERVER_ENV_KEYS).toEqual(
      expect.arrayContaining([
        'AUTH_GUEST_PASSWORD',
        'AUTH_LOGIN_ATTEMPTS_PER_MINUTE',
        ...AUTH_SERVER_SECRET_KEYS,
      ]),
    );
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['LOCALHOST', true],
    ['0.0.0.0', false],
    ['::', false],
    ['128.0.0.1', false],
    ['10.0.0.1', false],
    ['127.example.com', false],
    ['localhost.example.com', false],
    ['::ffff:127.0.0.1', false],
  ])('%s: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
