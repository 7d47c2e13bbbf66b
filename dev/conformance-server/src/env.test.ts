import { loadEnv } from '@mcp-workshop/mcp-server';
import { describe, expect, it } from 'vitest';
import { loadConformanceEnv } from './env.js';

describe('loadConformanceEnv', () => {
  it("reads the catalogue's settings", () => {
    const env = loadConformanceEnv({ HOST: '0.0.0.0', PORT: '4000', DATA_DIR: '/tmp/x', MCP_PAGE_SIZE: '3' });
    expect(env).toMatchObject({ HOST: '0.0.0.0', PORT: 4000, DATA_DIR: '/tmp/x', MCP_PAGE_SIZE: 3 });
  });

  it('drops MCP_CONFORMANCE (with which the catalogue hands its start over here): the fixtures are on anyway', () => {
    expect(loadEnv({ MCP_CONFORMANCE: '1' }).MCP_CONFORMANCE).toBe(true);
    const env = loadConformanceEnv({ MCP_CONFORMANCE: '1', PORT: '4000' });
    expect(env.PORT).toBe(4000);
    expect(env.MCP_CONFORMANCE).toBe(false);
  });

  it('still refuses a bad setting, naming it', () => {
    expect(() => loadConformanceEnv({ PORT: 'x' })).toThrow(/PORT/);
  });
});
