/**
 * @module env
 * The only place here that reads `process.env`: the catalogue's own settings (its `loadEnv`: HOST,
 * PORT, DATA_DIR, MCP_PAGE_SIZE, the limits, sign-in), so this server runs on exactly what the
 * catalogue would. MCP_CONFORMANCE=true on the catalogue hands its start to this server; here the
 * fixtures are on anyway, so the variable is dropped before the check.
 */
import { loadEnv, type ServerEnv } from '@mcp-workshop/mcp-server';

export function loadConformanceEnv(source: NodeJS.ProcessEnv = process.env): ServerEnv {
  const { MCP_CONFORMANCE: _fixturesOnAnyway, ...settings } = source;
  return loadEnv(settings);
}
