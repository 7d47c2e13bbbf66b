/**
 * @module conformance/resources
 * Fixture resources the conformance suite reads: static text, static binary, a URI template,
 * and `test://watched-resource` for `resources/subscribe` (the subscribe handlers themselves
 * belong to `src/resources/`; this only makes the URI known).
 */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { TINY_PNG_BASE64 } from './media.js';

export function registerFixtureResources(server: McpServer): void {
  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'Conformance fixture: a fixed text resource.', mimeType: 'text/plain' },
    async (uri) => ({
      contents: [
        { uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
      ],
    }),
  );

  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'Conformance fixture: a fixed 1x1 PNG.', mimeType: 'image/png' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: TINY_PNG_BASE64 }] }),
  );

  server.registerResource(
    'template-data',
    // `list: undefined`: the ids are unbounded, so the template adds nothing to resources/list.
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'Conformance fixture: JSON data for any id.', mimeType: 'application/json' },
    async (uri, { id }) => {
      const value = String(id);
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/json',
            text: JSON.stringify({ id: value, templateTest: true, data: `Data for ID: ${value}` }),
          },
        ],
      };
    },
  );

  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { description: 'Conformance fixture: the resource the suite subscribes to.', mimeType: 'text/plain' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched resource content' }],
    }),
  );
}
