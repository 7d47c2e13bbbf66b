/**
 * @module conformance
 * Fixture tools, resources and prompts with the fixed names the official MCP conformance suite
 * (`pnpm conformance`, `scripts/conformance.mjs`) calls. Loaded only when MCP_CONFORMANCE=1, so
 * the workshop's own lists stay clean. Test: `fixtures.test.ts`.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { registerClientRequestTools } from './client-request-tools.js';
import { registerContentTools } from './content-tools.js';
import { registerJsonSchemaTool } from './json-schema-tool.js';
import { registerNotificationTools } from './notification-tools.js';
import { registerFixturePrompts } from './prompts.js';
import { registerFixtureResources } from './resources.js';

/** Registers every fixture. Call after the workshop's own items, before list pagination is set up. */
export function registerConformanceFixtures(server: McpServer): void {
  registerContentTools(server);
  registerNotificationTools(server);
  registerClientRequestTools(server);
  registerJsonSchemaTool(server);
  registerFixtureResources(server);
  registerFixturePrompts(server);
}
