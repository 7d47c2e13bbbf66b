/**
 * @module services
 * The services the launcher can start, and where each one's entry file is: the `./main` export
 * of its package, the same file its Docker image runs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface ServiceSpec {
  /** For notes and errors, e.g. "the workshop MCP server". */
  title: string;
  packageName: string;
  /** The variables that set where it listens. */
  hostVar: string;
  portVar: string;
  /** From its base URL: `/health` to wait on, and the URL the agent is given. */
  healthPath: string;
  urlPath: string;
}

export const MCP_SERVER: ServiceSpec = {
  title: 'the workshop MCP server',
  packageName: '@mcp-workshop/mcp-server',
  hostVar: 'HOST',
  portVar: 'PORT',
  healthPath: '/health',
  urlPath: '/mcp',
};

export const DEMO_MODEL: ServiceSpec = {
  title: 'the offline demo model',
  packageName: '@mcp-workshop/demo-model',
  hostVar: 'DEMO_MODEL_HOST',
  portVar: 'DEMO_MODEL_PORT',
  healthPath: '/health',
  urlPath: '/v1',
};

export const AGENT_PACKAGE = '@mcp-workshop/agent';

const require = createRequire(import.meta.url);

/** The absolute path of a workspace package's entry file (its `./main` export), built or not. */
export function entryOf(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    exports?: Record<string, unknown>;
  };
  const entry = manifest.exports?.['./main'];
  if (typeof entry !== 'string') throw new Error(`${packageName} exports no "./main" entry file`);
  return join(dirname(manifestPath), entry);
}
