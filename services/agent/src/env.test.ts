import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AGENT_GENERATED_SECRET_KEYS,
  EnvError,
  generatesApiToken,
  loadAgentEnv,
  loadAgentEnvWith,
} from './env.js';

/** The error message for this environment, or undefined when it was taken. */
function refusal(env: Record<string, string>): string | undefined {
  try {
    loadAgentEnv(env);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
}

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

describe('loadAgentEnv: AGENT_API_TOKEN', () => {
  const GOOD = '3f9a1c7e5b2d8046af13c9e7b5d2a8f0416c3e9b7a5d2f8e';

  it('starts off loopback without a token, and says the entry must make one (as Jupyter does)', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'agent.example']) {
      const env = loadAgentEnv({ AGENT_HOST: host });
      expect(env.AGENT_API_TOKEN, host).toBeUndefined();
      expect(generatesApiToken(env), host).toBe(true);
    }
    // An empty value is unset, as `AGENT_API_TOKEN=` in a .env copied from .env.example.
    expect(generatesApiToken(loadAgentEnv({ AGENT_HOST: '0.0.0.0', AGENT_API_TOKEN: '' }))).toBe(true);
  });

  it('takes a generated token off loopback, and none on loopback; a set one is never replaced', () => {
    const set = loadAgentEnv({ AGENT_HOST: '0.0.0.0', AGENT_API_TOKEN: GOOD });
    expect(set.AGENT_API_TOKEN).toBe(GOOD);
    expect(generatesApiToken(set)).toBe(false);
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) {
      const env = loadAgentEnv({ AGENT_HOST: host });
      expect(env.AGENT_API_TOKEN, host).toBeUndefined();
      expect(generatesApiToken(env), host).toBe(false);
    }
  });

  it('names AGENT_API_TOKEN as the secret .env may leave empty', () => {
    expect(AGENT_GENERATED_SECRET_KEYS).toEqual(['AGENT_API_TOKEN']);
  });

  it.each([
    ['too short', 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d'],
    ['a placeholder', 'change-me-change-me-change-me-change-me'],
    ['a documented example', 'replace-with-openssl-rand-hex-32-output'],
    ['one character repeated', 'a'.repeat(64)],
    ['a few characters repeated', 'abcabcabcabcabcabcabcabcabcabcabcabc'],
    ['with a space', `${GOOD.slice(0, 20)} ${GOOD.slice(20)}`],
  ])('refuses a token that is %s, on loopback too, without printing it', (_label, token) => {
    for (const host of ['0.0.0.0', '127.0.0.1']) {
      const message = refusal({ AGENT_HOST: host, AGENT_API_TOKEN: token });
      expect(message).toContain('AGENT_API_TOKEN');
      expect(message).not.toContain(token);
    }
  });

  it('reads AGENT_RATE_LIMIT_PER_MINUTE (default 30) and refuses 0 or junk', () => {
    expect(loadAgentEnv({}).AGENT_RATE_LIMIT_PER_MINUTE).toBe(30);
    expect(loadAgentEnv({ AGENT_RATE_LIMIT_PER_MINUTE: '5' }).AGENT_RATE_LIMIT_PER_MINUTE).toBe(5);
    expect(refusal({ AGENT_RATE_LIMIT_PER_MINUTE: '0' })).toContain('AGENT_RATE_LIMIT_PER_MINUTE');
    expect(refusal({ AGENT_RATE_LIMIT_PER_MINUTE: 'lots' })).toContain('AGENT_RATE_LIMIT_PER_MINUTE');
  });

  it('takes AGENT_ALLOWED_ORIGINS as full origins only', () => {
    expect(
      loadAgentEnv({ AGENT_ALLOWED_ORIGINS: 'http://chat.example:8080, https://chat.example' })
        .AGENT_ALLOWED_ORIGINS,
    ).toEqual(['http://chat.example:8080', 'https://chat.example']);
    for (const value of [
      'chat.example',
      'http://chat.example/',
      'http://chat.example/path',
      'ftp://x.example',
    ]) {
      expect(refusal({ AGENT_ALLOWED_ORIGINS: value }), value).toContain('AGENT_ALLOWED_ORIGINS');
    }
  });
});

describe('loadAgentEnv: MCP Apps views', () => {
  it('runs the sandbox proxy on port 3004 by default, any free port with 0, or the port given', () => {
    expect(loadAgentEnv({}).AGENT_VIEW_SANDBOX_PORT).toBe(3004);
    expect(loadAgentEnv({ AGENT_VIEW_SANDBOX_PORT: '0' }).AGENT_VIEW_SANDBOX_PORT).toBe(0);
    expect(loadAgentEnv({ AGENT_VIEW_SANDBOX_PORT: '65535' }).AGENT_VIEW_SANDBOX_PORT).toBe(65_535);
  });

  it.each(['-1', '65536', '3004.5', 'sandbox', '0x'])('refuses AGENT_VIEW_SANDBOX_PORT=%s', (port) => {
    expect(refusal({ AGENT_VIEW_SANDBOX_PORT: port })).toContain('AGENT_VIEW_SANDBOX_PORT');
  });

  it('takes AGENT_VIEW_SANDBOX_ORIGIN as a full origin only, and leaves it unset by default', () => {
    expect(loadAgentEnv({}).AGENT_VIEW_SANDBOX_ORIGIN).toBeUndefined();
    expect(
      loadAgentEnv({ AGENT_VIEW_SANDBOX_ORIGIN: 'https://views.example:8443' }).AGENT_VIEW_SANDBOX_ORIGIN,
    ).toBe('https://views.example:8443');
    for (const value of [
      'views.example',
      'https://views.example/',
      'https://views.example/sandbox.html',
      'https://views.example?x=1',
      'ftp://views.example',
      'javascript:alert(1)',
      'null',
    ]) {
      expect(refusal({ AGENT_VIEW_SANDBOX_ORIGIN: value }), value).toContain('AGENT_VIEW_SANDBOX_ORIGIN');
    }
  });

  it('reads AGENT_VIEW_CALLS_PER_MINUTE (default 60) and refuses 0 or junk', () => {
    expect(loadAgentEnv({}).AGENT_VIEW_CALLS_PER_MINUTE).toBe(60);
    expect(loadAgentEnv({ AGENT_VIEW_CALLS_PER_MINUTE: '5' }).AGENT_VIEW_CALLS_PER_MINUTE).toBe(5);
    for (const value of ['0', '-3', '2.5', 'lots', '100001']) {
      expect(refusal({ AGENT_VIEW_CALLS_PER_MINUTE: value }), value).toContain('AGENT_VIEW_CALLS_PER_MINUTE');
    }
  });
});

describe('loadAgentEnvWith', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("puts the launcher's variables over the process environment, and keeps the rest of it", () => {
    vi.stubEnv('MCP_SERVER_URL', 'http://127.0.0.1:3000/mcp');
    vi.stubEnv('AGENT_MAX_TOOL_ROUNDS', '3');
    const env = loadAgentEnvWith({ MCP_SERVER_URL: 'http://127.0.0.1:41234/mcp' });
    expect(env.MCP_SERVER_URL).toBe('http://127.0.0.1:41234/mcp');
    expect(env.AGENT_MAX_TOOL_ROUNDS).toBe(3);
  });

  it("validates the launcher's variables like any other", () => {
    expect(() => loadAgentEnvWith({ DEMO_MODEL_URL: 'not a url' })).toThrow(EnvError);
  });
});

describe('loadAgentEnv: tool search (progressive discovery)', () => {
  it('defaults to auto, from 30 tools or 6000 tokens', () => {
    expect(loadAgentEnv({})).toMatchObject({
      AGENT_TOOL_SEARCH: 'auto',
      AGENT_TOOL_SEARCH_MIN_TOOLS: 30,
      AGENT_TOOL_SEARCH_MIN_TOKENS: 6_000,
    });
  });

  it('takes on, off and other limits', () => {
    const env = loadAgentEnv({
      AGENT_TOOL_SEARCH: 'on',
      AGENT_TOOL_SEARCH_MIN_TOOLS: '12',
      AGENT_TOOL_SEARCH_MIN_TOKENS: '2500',
    });
    expect(env).toMatchObject({
      AGENT_TOOL_SEARCH: 'on',
      AGENT_TOOL_SEARCH_MIN_TOOLS: 12,
      AGENT_TOOL_SEARCH_MIN_TOKENS: 2_500,
    });
    expect(loadAgentEnv({ AGENT_TOOL_SEARCH: 'off' }).AGENT_TOOL_SEARCH).toBe('off');
  });

  it('refuses an unknown mode and a limit that is no positive whole number, naming the variable', () => {
    expect(refusal({ AGENT_TOOL_SEARCH: 'always' })).toContain('AGENT_TOOL_SEARCH');
    expect(refusal({ AGENT_TOOL_SEARCH_MIN_TOOLS: '0' })).toContain('AGENT_TOOL_SEARCH_MIN_TOOLS');
    expect(refusal({ AGENT_TOOL_SEARCH_MIN_TOKENS: 'many' })).toContain('AGENT_TOOL_SEARCH_MIN_TOKENS');
  });
});
