import { describe, expect, it } from 'vitest';
import { DEMO_MODEL_ENV_KEYS, loadDemoModelEnv } from './env.js';
import { DEFAULT_CHUNK_DELAY_MS } from './server.js';
import { startOptionsFromEnv } from './start.js';

describe('loadDemoModelEnv', () => {
  it('paces stream events by the server default when DEMO_MODEL_CHUNK_DELAY_MS is unset or empty', () => {
    expect(loadDemoModelEnv({}).DEMO_MODEL_CHUNK_DELAY_MS).toBe(DEFAULT_CHUNK_DELAY_MS);
    expect(loadDemoModelEnv({ DEMO_MODEL_CHUNK_DELAY_MS: '' }).DEMO_MODEL_CHUNK_DELAY_MS).toBe(
      DEFAULT_CHUNK_DELAY_MS,
    );
  });

  it('reads DEMO_MODEL_CHUNK_DELAY_MS=0 as "no pause", and lists it among the variables it reads', () => {
    expect(loadDemoModelEnv({ DEMO_MODEL_CHUNK_DELAY_MS: '0' }).DEMO_MODEL_CHUNK_DELAY_MS).toBe(0);
    expect(DEMO_MODEL_ENV_KEYS).toContain('DEMO_MODEL_CHUNK_DELAY_MS');
  });

  it.each(['-1', 'fast', '1.5', '100000'])('refuses DEMO_MODEL_CHUNK_DELAY_MS=%s, naming it', (value) => {
    expect(() => loadDemoModelEnv({ DEMO_MODEL_CHUNK_DELAY_MS: value })).toThrow(/DEMO_MODEL_CHUNK_DELAY_MS/);
  });
});

describe('startOptionsFromEnv', () => {
  it('starts the model where the environment says, with its pause between stream events', () => {
    const env = loadDemoModelEnv({
      DEMO_MODEL_HOST: '::1',
      DEMO_MODEL_PORT: '0',
      DEMO_MODEL_CHUNK_DELAY_MS: '0',
    });
    expect(startOptionsFromEnv(env)).toEqual({ host: '::1', port: 0, chunkDelayMs: 0 });
  });
});
