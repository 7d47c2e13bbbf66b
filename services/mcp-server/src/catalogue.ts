/**
 * @module catalogue
 * The workshop catalogue, as one value: its tools, prompts and resources, its settings and its
 * dependencies (`deps.ts`). The host serves it (`@mcp-workshop/mcp-host/run`): `node dist/index.js`
 * and `--stdio` run it, `pnpm dev` reloads it on every save, and tests start it in-process. To add a
 * tool, write `tools/<name>.ts` with its test beside it and add it to `tools/index.ts`.
 */
import { defineCatalogue } from '@mcp-workshop/mcp-host/kit';
import { createServices, env, SCOPES_SUPPORTED, TASKS_READ } from './deps.js';
import { prompts } from './prompts/index.js';
import { registerResources } from './resources/index.js';
import { tools } from './tools/index.js';
import { CITIES } from './weather/cities.js';

export const SERVER_NAME = 'mcp-workshop-server';
export const SERVER_VERSION = '0.1.0';

const catalogue = defineCatalogue({
  name: SERVER_NAME,
  version: SERVER_VERSION,
  title: 'MCP Workshop Server',
  instructions:
    `Workshop server with offline example tools: weather for ${CITIES.length} cities, arithmetic, time zones and a small task list. ` +
    'Results carry structuredContent (a JSON object) plus the same JSON as text; failures come back with isError: true.',
  env,
  services: createServices,
  tools,
  prompts,
  resources: registerResources,
  // Each tool and prompt says in its own file which scopes it needs; `tasks://` needs `tasks:read`.
  scopes: { supported: SCOPES_SUPPORTED, resourceSchemes: { tasks: [TASKS_READ] } },
});

export default catalogue;

// What other packages (exercises, tests, the conformance server) build on.
export type { ToolDeps, WorkshopEnv, WorkshopTool } from './deps.js';
export { DEFAULT_DATA_DIR, defineTool, SCOPES_SUPPORTED, TASKS_READ, TASKS_WRITE } from './deps.js';
export { prompts } from './prompts/index.js';
export { tools } from './tools/index.js';
export { listCitiesSpec } from './tools/list-cities.js';
