/**
 * The check for exercise 05: the `facts://` resources and the `quiz_me` prompt, read through the
 * official MCP client.
 */
import { ResourceNotFoundError } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATEGORIES, FACTS } from '../data/facts.js';
import { type Connected, connect } from '../test-support/mcp.js';
import { loadParticipant } from '../test-support/participant.js';

type Participant = typeof import('./starter/facts-server.js');

interface FactList {
  items: Array<{ category: string; fact: string }>;
  count: number;
}

/** A server that offers no resources (or prompts) at all answers "method not found": an empty list here. */
async function orEmpty<T>(request: Promise<T>, empty: T): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (/method not found|-32601/i.test(String(error))) return empty;
    throw error;
  }
}

describe('exercise 05: a resource and a prompt', () => {
  let conn: Connected;
  beforeEach(async () => {
    const { registerFactResources, registerQuizPrompt } = await loadParticipant<Participant>(
      '05-resource-and-prompt',
      'facts-server.ts',
    );
    conn = await connect((server) => {
      registerFactResources(server);
      registerQuizPrompt(server);
    });
  });
  afterEach(async () => conn?.close());

  const read = async (uri: string): Promise<FactList> => {
    const { contents } = await orEmpty(conn.client.readResource({ uri }), { contents: [] });
    expect(contents, `reading ${uri} should answer with exactly one item`).toHaveLength(1);
    const [item] = contents as Array<{ uri: string; mimeType?: string; text?: string }>;
    expect(item?.uri, 'the item should echo the URI that was read').toBe(uri);
    expect(item?.mimeType, 'the item should say it is JSON').toBe('application/json');
    return JSON.parse(item?.text ?? '') as FactList;
  };

  it('facts://all is listed as a JSON resource with a title', async () => {
    const { resources } = await orEmpty(conn.client.listResources(), { resources: [] });
    const all = resources.find((resource) => resource.uri === 'facts://all');
    expect(all, 'resources/list has no facts://all').toBeDefined();
    expect(all?.mimeType, 'facts://all mimeType').toBe('application/json');
    expect(all?.title ?? '', 'facts://all has no title').not.toBe('');
  });

  it('reading facts://all gives every fact as { items, count }', async () => {
    const data = await read('facts://all');
    const expected = CATEGORIES.flatMap((category) => FACTS[category].map((fact) => ({ category, fact })));
    expect(data.items, 'items should be every fact as { category, fact }, in data order').toEqual(expected);
    expect(data.count, 'count should be the number of items').toBe(expected.length);
  });

  it('the template facts://{category} is offered, and lists one resource per category', async () => {
    const { resourceTemplates } = await orEmpty(conn.client.listResourceTemplates(), {
      resourceTemplates: [],
    });
    expect(
      resourceTemplates.map((template) => template.uriTemplate),
      'resources/templates/list should offer facts://{category}',
    ).toContain('facts://{category}');
    const { resources } = await orEmpty(conn.client.listResources(), { resources: [] });
    expect(
      resources.map((resource) => resource.uri),
      'the template should list facts://<category> for each category',
    ).toEqual(expect.arrayContaining(CATEGORIES.map((category) => `facts://${category}`)));
  });

  it('reading facts://animals gives only the animal facts', async () => {
    const data = await read('facts://animals');
    expect(
      data.items.map((item) => item.fact),
      'items should be the animal facts only',
    ).toEqual(FACTS.animals);
    expect(data.count, 'count should be the number of items').toBe(FACTS.animals.length);
  });

  it('reading an unknown category through the template throws ResourceNotFoundError', async () => {
    // Without the template the SDK itself answers "not found": that proves nothing about your code.
    const { resourceTemplates } = await orEmpty(conn.client.listResourceTemplates(), {
      resourceTemplates: [],
    });
    expect(
      resourceTemplates.map((template) => template.uriTemplate),
      'register the template facts://{category} first: reading facts://sport must reach it',
    ).toContain('facts://{category}');
    const error = await conn.client.readResource({ uri: 'facts://sport' }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error, 'reading facts://sport should be an error, not an empty list').toBeDefined();
    // The client rebuilds a ResourceNotFoundError from the wire (-32602 with data { uri }); any other throw is not one.
    expect(
      ResourceNotFoundError.isInstance(error),
      `throw a ResourceNotFoundError, not ${String(error)}`,
    ).toBe(true);
    expect(String(error), 'the error should name the URI or say it was not found').toMatch(
      /sport|not found/i,
    );
  });

  it('quiz_me is listed with a required, described category argument', async () => {
    const { prompts } = await orEmpty(conn.client.listPrompts(), { prompts: [] });
    const quiz = prompts.find((prompt) => prompt.name === 'quiz_me');
    expect(quiz, 'prompts/list has no quiz_me').toBeDefined();
    const category = quiz?.arguments?.find((argument) => argument.name === 'category');
    expect(category, 'quiz_me has no category argument').toBeDefined();
    expect(category?.required, 'category should be required').toBe(true);
    expect(category?.description ?? '', 'category has no description').not.toBe('');
  });

  it("quiz_me embeds the category's facts and asks for a quiz", async () => {
    const { messages } = await orEmpty(
      conn.client.getPrompt({ name: 'quiz_me', arguments: { category: 'space' } }),
      { messages: [] },
    );
    const embedded = messages.find((message) => message.content.type === 'resource');
    expect(embedded, 'one message should be a resource block with facts://space').toBeDefined();
    const resource = (embedded?.content as { resource?: { uri?: string; text?: string } } | undefined)
      ?.resource;
    expect(resource?.uri, 'the embedded resource should be facts://space').toBe('facts://space');
    for (const fact of FACTS.space)
      expect(resource?.text, 'the embedded text should hold every space fact').toContain(fact);
    const text = messages.flatMap((message) =>
      message.content.type === 'text' ? [message.content.text] : [],
    );
    expect(text.join(' '), 'a text message should ask the model to quiz the user').toMatch(/quiz/i);
  });

  it('quiz_me refuses a category it does not know', async () => {
    await expect(
      conn.client.getPrompt({ name: 'quiz_me', arguments: { category: 'sport' } }),
      'prompts/get with category "sport" should be an error',
    ).rejects.toThrow();
    const { prompts } = await orEmpty(conn.client.listPrompts(), { prompts: [] });
    expect(
      prompts.map((prompt) => prompt.name),
      'prompts/list has no quiz_me',
    ).toContain('quiz_me');
  });
});
