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

describe('loadAgentEnv: TRACE_VIEWER_URL', () => {
  /** Loads just this variable and returns the error message, or undefined when it was taken. */
  function refusal(value: string): string | undefined {
    try {
      loadAgentEnv({ TRACE_VIEWER_URL: value });
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      return (error as Error).message;
    }
  }

  it('takes an http(s) template with {traceId}, and is unset by default', () => {
    const template = 'http://localhost:16686/trace/{traceId}';
    expect(loadAgentEnv({ TRACE_VIEWER_URL: template }).TRACE_VIEWER_URL).toBe(template);
    expect(loadAgentEnv({ TRACE_VIEWER_URL: 'https://ui.example/t?id={traceId}' }).TRACE_VIEWER_URL).toBe(
      'https://ui.example/t?id={traceId}',
    );
    expect(loadAgentEnv({}).TRACE_VIEWER_URL).toBeUndefined();
  });

  it.each([
    ['a javascript: URL', 'javascript:alert(document.cookie)//{traceId}'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>{traceId}'],
    ['a vbscript: URL', 'vbscript:msgbox({traceId})'],
    ['a relative path', '/trace/{traceId}'],
  ])('refuses %s, so no script can reach the page', (_label, value) => {
    expect(refusal(value)).toMatch(/TRACE_VIEWER_URL/);
  });

  it('refuses a user name or password in the template, which every visitor of the page would see', () => {
    expect(refusal('http://admin:secret@traces.example/trace/{traceId}')).toContain(
      'must not contain a user name or password',
    );
    expect(refusal('https://token@traces.example/trace/{traceId}')).toContain('user name or password');
  });

  it('refuses a template without {traceId}, and says what one looks like', () => {
    expect(refusal('http://localhost:16686/search')).toContain('{traceId}');
  });
});
