import { afterEach, describe, expect, it } from 'vitest';
import type { Connected } from '../test-support/in-memory.js';
import { connectWithFixtures } from './test-support/connect.js';

describe('conformance prompts', () => {
  let connected: Connected | undefined;
  afterEach(async () => connected?.close());

  it('substitutes both arguments', async () => {
    connected = await connectWithFixtures();
    const { messages } = await connected.client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'testValue1', arg2: 'testValue2' },
    });
    expect(messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'" },
      },
    ]);
  });

  it('embeds a resource at the requested URI, and returns an image', async () => {
    connected = await connectWithFixtures();
    const { client } = connected;
    const embedded = await client.getPrompt({
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' },
    });
    expect(embedded.messages[0]?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'test://example-resource', mimeType: 'text/plain' },
    });
    const image = await client.getPrompt({ name: 'test_prompt_with_image' });
    expect(image.messages[0]?.content).toMatchObject({ type: 'image', mimeType: 'image/png' });
  });

  it('completes arg1 by prefix, and answers an unknown prefix with an empty list', async () => {
    connected = await connectWithFixtures();
    const complete = (value: string) =>
      connected?.client.complete({
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value },
      });
    expect((await complete('test'))?.completion.values).toEqual(['testValue1', 'testValue2']);
    expect((await complete('zzz'))?.completion.values).toEqual([]);
  });
});
