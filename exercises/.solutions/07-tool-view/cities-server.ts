/**
 * @module 07-tool-view/solution/cities-server
 * Exercise 07, solved: `list_cities` declares the MCP Apps view `ui://cities/list`, and the server
 * offers that view as a `text/html;profile=mcp-app` resource whose CSP names no outside origin.
 * The view itself: `cities-view.ts`.
 */
import { defineTool, listCitiesSpec } from '@mcp-workshop/mcp-server';
import { RESOURCE_MIME_TYPE, registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';

export const CITIES_VIEW_URI = 'ui://cities/list';

/** The catalogue's list_cities with a view: `tools/list` gains `_meta.ui`, results stay the same. */
export const listCities = defineTool({ ...listCitiesSpec, ui: { resourceUri: CITIES_VIEW_URI } });

/** Offers `html` (the built view, one self-contained file) as `ui://cities/list`. */
export function registerCitiesView(server: McpServer, html: string): void {
  // The view draws what the host hands it and fetches nothing: no outside origin at all.
  const _meta = { ui: { csp: { connectDomains: [], resourceDomains: [] } } };
  registerAppResource(
    server,
    'cities-list',
    CITIES_VIEW_URI,
    { title: 'Cities view', description: 'A table of the cities a list_cities result names.', _meta },
    async () => ({ contents: [{ uri: CITIES_VIEW_URI, mimeType: RESOURCE_MIME_TYPE, text: html, _meta }] }),
  );
}
