/**
 * @module 07-tool-view/starter/cities-server
 * Exercise 07, the server side: `list_cities` declares the MCP Apps view `ui://cities/list`, and
 * the server offers that view as a resource. Edit this file and `cities-view.ts`; `pnpm exercise 07`
 * checks both. The catalogue does the same for get_weather: `services/mcp-server/src/resources/views.ts`.
 */
import { defineTool, listCitiesSpec } from '@mcp-workshop/mcp-server';
// TODO(exercise 07): you will need these to offer the view; uncomment the line, here where it sits.
// import { RESOURCE_MIME_TYPE, registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';

export const CITIES_VIEW_URI = 'ui://cities/list';

/** The catalogue's list_cities (its schemas, its handler), given a view below. */
export const listCities = defineTool({
  ...listCitiesSpec,
  // TODO(exercise 07): declare the view with defineTool's `ui` option, `{ resourceUri: ... }`.
  // tools/list then shows it as _meta.ui.resourceUri; the tool's results stay exactly the same.
});

/** Offers `html` (the built view, one self-contained file) as `ui://cities/list`. */
export function registerCitiesView(server: McpServer, html: string): void {
  // TODO(exercise 07): registerAppResource(server, name, CITIES_VIEW_URI, config, read), where
  // - config has a title, a description and `_meta: { ui: { csp } }`: the view fetches nothing,
  //   so every list of outside origins in the CSP is empty (connectDomains, resourceDomains);
  // - read returns { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: html, _meta }] }.
  void server;
  void html;
}
