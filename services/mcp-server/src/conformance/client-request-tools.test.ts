import { afterEach, describe, expect, it } from 'vitest';
import type { Connected } from '../test-support/in-memory.js';
import { connectWithFixtures } from './test-support/connect.js';

type Schema = { properties: Record<string, Record<string, unknown>> };

describe('conformance client-request tools', () => {
  let connected: Connected | undefined;
  afterEach(async () => connected?.close());

  const withElicitation = async (content: Record<string, unknown>) => {
    connected = await connectWithFixtures({ client: { capabilities: { elicitation: {} } } });
    const requests: Array<{ message: string; requestedSchema: Schema }> = [];
    connected.client.setRequestHandler('elicitation/create', (request) => {
      requests.push(request.params as never);
      return { action: 'accept', content: content as never };
    });
    return { client: connected.client, requests };
  };

  it('asks the client to sample the prompt and reports its answer', async () => {
    connected = await connectWithFixtures({ client: { capabilities: { sampling: {} } } });
    const seen: unknown[] = [];
    connected.client.setRequestHandler('sampling/createMessage', (request) => {
      seen.push(request.params);
      return { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'test-model' };
    });
    const result = await connected.client.callTool({
      name: 'test_sampling',
      arguments: { prompt: 'Say hi' },
    });
    expect(seen).toEqual([
      expect.objectContaining({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
        maxTokens: 100,
      }),
    ]);
    expect(result.content).toEqual([{ type: 'text', text: 'LLM response: hi' }]);
  });

  it('elicits username and email with the given message', async () => {
    const { client, requests } = await withElicitation({ username: 'testuser', email: 'test@example.com' });
    const result = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who?' } });
    expect(requests[0]?.message).toBe('Who?');
    expect(Object.keys(requests[0]?.requestedSchema.properties ?? {})).toEqual(['username', 'email']);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'User response: action=accept, content={"username":"testuser","email":"test@example.com"}',
      },
    ]);
  });

  it('sends a default for every primitive type (SEP-1034)', async () => {
    const { client, requests } = await withElicitation({
      name: 'Jane',
      age: 25,
      score: 88,
      status: 'pending',
      verified: false,
    });
    await client.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} });
    expect(requests[0]?.requestedSchema.properties).toMatchObject({
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
      verified: { type: 'boolean', default: true },
    });
  });

  it('sends all five enum shapes (SEP-1330)', async () => {
    const { client, requests } = await withElicitation({ untitledSingle: 'option1' });
    await client.callTool({ name: 'test_elicitation_sep1330_enums', arguments: {} });
    const props = requests[0]?.requestedSchema.properties ?? {};
    expect(props.untitledSingle).toEqual({ type: 'string', enum: ['option1', 'option2', 'option3'] });
    expect(props.titledSingle).toMatchObject({ type: 'string', oneOf: expect.any(Array) });
    expect(props.titledSingle).not.toHaveProperty('enum');
    expect(props.legacyEnum).toMatchObject({ enum: ['opt1', 'opt2', 'opt3'], enumNames: expect.any(Array) });
    expect(props.untitledMulti).toMatchObject({
      type: 'array',
      items: { type: 'string', enum: expect.any(Array) },
    });
    expect(props.titledMulti).toMatchObject({ type: 'array', items: { anyOf: expect.any(Array) } });
  });

  it('returns an isError result when the client cannot elicit', async () => {
    connected = await connectWithFixtures();
    const result = await connected.client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Who?' },
    });
    expect(result.isError).toBe(true);
  });
});
