/**
 * @module conformance/content-tools
 * Fixture tools that return fixed content: one per content type, a mix, and an error. The texts
 * are the ones the conformance suite's scenario descriptions spell out; the suite itself only
 * checks the shape, so these are plain SDK results, not the workshop's `ok()`/`fail()` builders.
 */
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { TINY_PNG_BASE64, TINY_WAV_BASE64 } from './media.js';

const FIXED_RESULTS: ReadonlyArray<{ name: string; description: string; result: CallToolResult }> = [
  {
    name: 'test_simple_text',
    description: 'Conformance fixture: returns one text block.',
    result: { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] },
  },
  {
    name: 'test_image_content',
    description: 'Conformance fixture: returns one 1x1 PNG image block.',
    result: { content: [{ type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' }] },
  },
  {
    name: 'test_audio_content',
    description: 'Conformance fixture: returns one short WAV audio block.',
    result: { content: [{ type: 'audio', data: TINY_WAV_BASE64, mimeType: 'audio/wav' }] },
  },
  {
    name: 'test_embedded_resource',
    description: 'Conformance fixture: returns one embedded text resource.',
    result: {
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    },
  },
  {
    name: 'test_multiple_content_types',
    description: 'Conformance fixture: returns text, an image and an embedded resource in one result.',
    result: {
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    },
  },
  {
    name: 'test_error_handling',
    description: 'Conformance fixture: always fails with an isError result.',
    result: {
      isError: true,
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
    },
  },
];

export function registerContentTools(server: McpServer): void {
  for (const { name, description, result } of FIXED_RESULTS) {
    server.registerTool(name, { description }, async () => result);
  }
}
