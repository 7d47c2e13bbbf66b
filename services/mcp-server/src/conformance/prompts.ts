/**
 * @module conformance/prompts
 * Fixture prompts the conformance suite gets: plain, with arguments (`arg1` completable, which
 * also makes the SDK answer `completion/complete`), with an embedded resource, and with an image.
 */
import { completable, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TINY_PNG_BASE64 } from './media.js';

/** What `completion/complete` offers for `arg1`; the suite only checks that `values` is an array. */
export const ARG1_SUGGESTIONS = ['testValue1', 'testValue2', 'sampleValue'];

export function registerFixturePrompts(server: McpServer): void {
  server.registerPrompt(
    'test_simple_prompt',
    { description: 'Conformance fixture: one fixed user message.' },
    () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    }),
  );

  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'Conformance fixture: a user message built from two arguments.',
      argsSchema: z.object({
        arg1: completable(z.string().describe('First test argument'), (value) =>
          ARG1_SUGGESTIONS.filter((suggestion) => suggestion.startsWith(value)),
        ),
        arg2: z.string().describe('Second test argument'),
      }),
    },
    ({ arg1, arg2 }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
        },
      ],
    }),
  );

  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'Conformance fixture: embeds a text resource at the given URI, then asks to process it.',
      argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );

  server.registerPrompt(
    'test_prompt_with_image',
    { description: 'Conformance fixture: a 1x1 PNG, then a request to analyze it.' },
    () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  );
}
