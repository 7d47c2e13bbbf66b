import { describe, expect, it } from 'vitest';
import { loadLauncherEnv } from './env.js';
import { DEFAULT_SERVER_PORT, planLaunch } from './plan.js';

describe('planLaunch', () => {
  it('looks for both services at their usual ports when nothing is configured', () => {
    expect(planLaunch('ask', loadLauncherEnv({}))).toEqual({
      server: { host: '127.0.0.1', probePort: DEFAULT_SERVER_PORT, startPort: 0 },
      demoModel: {
        host: '127.0.0.1',
        probePort: 3002,
        startPort: 0,
        env: { DEMO_MODEL_CHUNK_DELAY_MS: '0' },
      },
    });
  });

  it('looks for, and starts, the server at HOST and PORT when they are set', () => {
    const plan = planLaunch('chat', loadLauncherEnv({ HOST: '::1', PORT: '4100' }));
    expect(plan.server).toEqual({ host: '::1', probePort: 4100, startPort: 4100 });
  });

  it('looks for, and starts, the demo model at DEMO_MODEL_HOST and DEMO_MODEL_PORT when set', () => {
    expect(planLaunch('chat', loadLauncherEnv({ DEMO_MODEL_PORT: '4200' })).demoModel).toEqual({
      host: '127.0.0.1',
      probePort: 4200,
      startPort: 4200,
    });
    expect(planLaunch('chat', loadLauncherEnv({ DEMO_MODEL_PORT: '0' })).demoModel).toEqual({
      host: '127.0.0.1',
      startPort: 0,
    });
  });

  it('starts the demo model without pauses between stream events for ask and eval, which print answers whole', () => {
    expect(planLaunch('ask', loadLauncherEnv({ DEMO_MODEL_PORT: '0' })).demoModel?.env).toEqual({
      DEMO_MODEL_CHUNK_DELAY_MS: '0',
    });
    expect(planLaunch('eval', loadLauncherEnv({})).demoModel?.env).toEqual({
      DEMO_MODEL_CHUNK_DELAY_MS: '0',
    });
    expect(planLaunch('chat', loadLauncherEnv({})).demoModel?.env).toBe(undefined);
    expect(planLaunch('demo', loadLauncherEnv({})).demoModel?.env).toBe(undefined);
  });

  it('leaves the pause to DEMO_MODEL_CHUNK_DELAY_MS when it is set, for ask too', () => {
    expect(planLaunch('ask', loadLauncherEnv({ DEMO_MODEL_CHUNK_DELAY_MS: '40' })).demoModel?.env).toBe(
      undefined,
    );
  });

  it('always starts a fresh server for the demo and the eval, whatever listens on port 3000', () => {
    expect(planLaunch('demo', loadLauncherEnv({})).server).toEqual({ host: '127.0.0.1', startPort: 0 });
    // The eval's cases add and delete to-do items: never in the person's own database.
    expect(planLaunch('eval', loadLauncherEnv({ PORT: '3000' })).server).toEqual({
      host: '127.0.0.1',
      startPort: 0,
    });
  });

  it('starts a fresh server but no model for the lint, which asks none', () => {
    const plan = planLaunch('lint', loadLauncherEnv({}));
    expect(plan.server).toEqual({ host: '127.0.0.1', startPort: 0 });
    expect(plan.demoModel).toBe(undefined);
  });

  it('starts no server when MCP_SERVER_URL or MCP_SERVERS_CONFIG says where the servers are', () => {
    expect(planLaunch('ask', loadLauncherEnv({ MCP_SERVER_URL: 'http://10.0.0.5:3000/mcp' })).server).toBe(
      undefined,
    );
    expect(planLaunch('demo', loadLauncherEnv({ MCP_SERVERS_CONFIG: 'servers.json' })).server).toBe(
      undefined,
    );
  });

  it.each([
    { OPENAI_API_KEY: 'sk-test' },
    { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
    { DEMO_MODEL_URL: 'http://demo-model:3002/v1' },
  ])('starts no demo model when a model is configured (%o)', (env) => {
    expect(planLaunch('ask', loadLauncherEnv(env)).demoModel).toBe(undefined);
  });

  it('counts an empty value as unset, as every service does', () => {
    expect(planLaunch('ask', loadLauncherEnv({ OPENAI_API_KEY: '', MCP_SERVER_URL: ' ' }))).toMatchObject({
      server: { probePort: DEFAULT_SERVER_PORT },
      demoModel: { probePort: 3002 },
    });
  });

  it('refuses a PORT that is not a port, naming the variable', () => {
    expect(() => loadLauncherEnv({ PORT: 'eighty' })).toThrow(/PORT="eighty"/);
  });
});
