/**
 * @module env.test
 * `loadSuiteEnv`: the URL and revision settings, and every way they are refused.
 */
import { describe, expect, it } from 'vitest';
import { EnvError, loadSuiteEnv } from './env.js';
import { REVISIONS } from './revisions.js';

describe('loadSuiteEnv', () => {
  it('starts a local server (no target) for every revision when nothing is set', () => {
    expect(loadSuiteEnv({})).toEqual({ target: undefined, revisions: REVISIONS });
    expect(loadSuiteEnv({ PROTOCOL_SUITE_URL: ' ', PROTOCOL_SUITE_REVISIONS: '' })).toEqual({
      target: undefined,
      revisions: REVISIONS,
    });
  });

  it('takes the /mcp URL as given and its origin as the base URL', () => {
    const env = loadSuiteEnv({ PROTOCOL_SUITE_URL: 'https://mcp.example.test:8443/tenant/a/mcp?x=1' });
    expect(env.target).toEqual({
      baseUrl: 'https://mcp.example.test:8443',
      mcpUrl: 'https://mcp.example.test:8443/tenant/a/mcp?x=1',
    });
  });

  it('runs a subset of revisions, oldest first, without repeats', () => {
    const env = loadSuiteEnv({ PROTOCOL_SUITE_REVISIONS: '2026-07-28, 2024-11-05,2026-07-28,' });
    expect(env.revisions).toEqual(['2024-11-05', '2026-07-28']);
  });

  it('refuses a malformed URL and names the variable', () => {
    expect(() => loadSuiteEnv({ PROTOCOL_SUITE_URL: 'localhost:3000/mcp' })).toThrow(EnvError);
    expect(() => loadSuiteEnv({ PROTOCOL_SUITE_URL: 'http://' })).toThrow(/PROTOCOL_SUITE_URL="http:\/\/"/);
  });

  it('refuses a URL whose scheme is not http or https', () => {
    for (const url of ['ftp://127.0.0.1/mcp', 'file:///tmp/mcp', 'ws://127.0.0.1:3000/mcp']) {
      expect(() => loadSuiteEnv({ PROTOCOL_SUITE_URL: url }), url).toThrow(/http:\/\/ or https:\/\//);
    }
  });

  it('refuses an unknown revision and lists the known ones', () => {
    expect(() => loadSuiteEnv({ PROTOCOL_SUITE_REVISIONS: '2025-11-25,2099-01-01' })).toThrow(
      /PROTOCOL_SUITE_REVISIONS=.*unknown revision 2099-01-01; known: 2024-11-05/,
    );
  });

  it('refuses a revision list that names nothing', () => {
    expect(() => loadSuiteEnv({ PROTOCOL_SUITE_REVISIONS: ' , ,' })).toThrow(/names no revision/);
  });
});
