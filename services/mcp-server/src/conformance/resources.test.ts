import { afterEach, describe, expect, it } from 'vitest';
import type { Connected } from '../test-support/in-memory.js';
import { TINY_PNG_BASE64 } from './media.js';
import { connectWithFixtures } from './test-support/connect.js';

describe('conformance resources', () => {
  let connected: Connected | undefined;
  afterEach(async () => connected?.close());

  it('reads the static text and binary resources', async () => {
    connected = await connectWithFixtures();
    const { client } = connected;
    expect((await client.readResource({ uri: 'test://static-text' })).contents).toEqual([
      {
        uri: 'test://static-text',
        mimeType: 'text/plain',
        text: 'This is the content of the static text resource.',
      },
    ]);
    expect((await client.readResource({ uri: 'test://static-binary' })).contents).toEqual([
      { uri: 'test://static-binary', mimeType: 'image/png', blob: TINY_PNG_BASE64 },
    ]);
  });

  it('fills the template id into the JSON it returns', async () => {
    connected = await connectWithFixtures();
    const { contents } = await connected.client.readResource({ uri: 'test://template/123/data' });
    expect(contents).toEqual([
      {
        uri: 'test://template/123/data',
        mimeType: 'application/json',
        text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
      },
    ]);
  });
});
