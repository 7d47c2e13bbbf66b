import { loadEnv } from '@mcp-workshop/mcp-server';
import { describe, expect, it } from 'vitest';
import { loadConformanceEnv } from './env.js';

describe('loadConformanceEnv', () => {
  it("reads the catalogue's settings", () => {
    const env = loadConformanceEnv({ HOST: '0.0.0.0', PORT: '4000', DATA_DIR: '/tmp/x', MCP_PAGE_SIZE: '3' });
    expect(env).toMatchObject({ HOST: '0.0.0.0', PORT: 4000, DATA_DIR: '/tmp/x', MCP_PAGE_SIZE: 3 });
  });

  it('takes the MCP_CONFORMANCE=1 the catalogue refuses', () => {
    expect(() => loadEnv({ MCP_CONFORMANCE: '1' })).toThrow(/dev\/conformance-server/);
    expect(loadConformanceEnv({ MCP_CONFORMANCE: '1', PORT: '4000' }).PORT).toBe(4000);
  });

  it('still refuses a bad setting, naming it', () => {
    expect(() => loadConformanceEnv({ PORT: 'x' })).toThrow(/PORT/);
  });
});
