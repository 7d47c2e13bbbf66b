import { describe, expect, it } from 'vitest';
import { EnvError, loadAgentEnv } from './env.js';

describe('loadAgentEnv: OAuth sign-in', () => {
  const complete = {
    MCP_OAUTH_CLIENT_ID: 'workshop-agent',
    MCP_OAUTH_CLIENT_SECRET: 'a-very-secret-value',
    MCP_OAUTH_ISSUER: 'http://127.0.0.1:3003',
  };

  it('takes the client id, secret and issuer: the agent signs in as a machine', () => {
    expect(loadAgentEnv({ ...complete, MCP_OAUTH_SCOPE: 'tasks:read' })).toMatchObject({
      ...complete,
      MCP_OAUTH_SCOPE: 'tasks:read',
    });
    expect(loadAgentEnv({}).MCP_OAUTH_CLIENT_ID).toBeUndefined();
  });

  it('takes the id and issuer without a secret: a person signs in', () => {
    const { MCP_OAUTH_CLIENT_SECRET: _secret, ...person } = complete;
    expect(loadAgentEnv(person)).toMatchObject(person);
  });

  it('names what is missing, and never prints the secret', () => {
    for (const missing of ['MCP_OAUTH_CLIENT_ID', 'MCP_OAUTH_ISSUER']) {
      const env: Record<string, string> = { ...complete };
      delete env[missing];
      let error: unknown;
      try {
        loadAgentEnv(env);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(EnvError);
      expect((error as Error).message).toContain(`${missing}=""`);
      expect((error as Error).message).not.toContain('a-very-secret-value');
    }
  });
});
