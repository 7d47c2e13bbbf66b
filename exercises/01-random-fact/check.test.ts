/**
 * The check for exercise 01: `get_random_fact`, driven through the official MCP client.
 * Each test name is a sentence `pnpm exercise 01` prints when it fails.
 */
import { validateToolResult } from '@mcp-workshop/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATEGORIES, FACTS } from '../data/facts.js';
import { type Connected, connectTools, firstText } from '../test-support/mcp.js';
import { loadParticipant } from '../test-support/participant.js';

type Participant = typeof import('./starter/get-random-fact.js');

/** With three facts, a fair random pick gives one fact this many times running with odds of 1 in 3^29. */
const RANDOM_CALLS = 30;

describe('exercise 01: get_random_fact', () => {
  let conn: Connected;
  beforeEach(async () => {
    const { getRandomFact } = await loadParticipant<Participant>('01-random-fact', 'get-random-fact.ts');
    conn = await connectTools(getRandomFact);
  });
  afterEach(async () => conn?.close());

  const listed = async () => {
    const { tools } = await conn.client.listTools();
    const tool = tools.find((entry) => entry.name === 'get_random_fact');
    expect(tool, 'tools/list has no tool named get_random_fact').toBeDefined();
    return tool as NonNullable<typeof tool>;
  };

  it('the tool is listed with a real title and description', async () => {
    const tool = await listed();
    expect(tool.title ?? '', 'the title is still TODO').not.toMatch(/^$|TODO/);
    expect(tool.description ?? '', 'the description is still TODO').not.toMatch(/^$|TODO/);
  });

  it('category is an enum of space, animals and history, with a description', async () => {
    const tool = await listed();
    const category = (tool.inputSchema.properties?.category ?? {}) as {
      enum?: unknown;
      description?: string;
    };
    expect(category.enum, 'inputSchema.properties.category.enum should list the categories').toEqual([
      ...CATEGORIES,
    ]);
    expect(category.description ?? '', 'category has no .describe() text').not.toBe('');
    expect(tool.inputSchema.required, 'category should be required').toContain('category');
  });

  it('the outputSchema declares category and fact, each with a description', async () => {
    const tool = await listed();
    const schema = tool.outputSchema as
      | { properties?: Record<string, { description?: string }>; required?: string[] }
      | undefined;
    expect(
      Object.keys(schema?.properties ?? {}),
      'the outputSchema should have the fields category and fact',
    ).toEqual(expect.arrayContaining(['category', 'fact']));
    expect(schema?.required ?? [], 'category and fact should be required in the outputSchema').toEqual(
      expect.arrayContaining(['category', 'fact']),
    );
    for (const field of ['category', 'fact'])
      expect(
        schema?.properties?.[field]?.description ?? '',
        `the output field ${field} has no .describe() text`,
      ).not.toBe('');
  });

  it('the annotations say the tool only reads, and may answer differently each time', async () => {
    const tool = await listed();
    expect(
      tool.annotations?.readOnlyHint,
      'annotations.readOnlyHint should be true: the tool only reads',
    ).toBe(true);
    expect(tool.annotations?.destructiveHint, 'annotations.destructiveHint should be false').toBe(false);
    expect(
      tool.annotations?.idempotentHint,
      'annotations.idempotentHint should be false: two calls may give two different facts',
    ).toBe(false);
  });

  it.each(CATEGORIES)('a call for %s returns one of its facts as structuredContent', async (category) => {
    const result = await conn.client.callTool({ name: 'get_random_fact', arguments: { category } });
    expect(result.isError, `the call failed: ${firstText(result)}`).toBe(false);
    expect(validateToolResult(result).ok, 'the result breaks the workshop result contract').toBe(true);
    const data = result.structuredContent as { category?: unknown; fact?: unknown };
    expect(data.category, 'structuredContent.category').toBe(category);
    expect(FACTS[category], 'structuredContent.fact should be one of FACTS[category]').toContain(data.fact);
  });

  it('repeated calls pick a fact at random, not always the same one', async () => {
    const facts = new Set<unknown>();
    for (let call = 0; call < RANDOM_CALLS; call++) {
      const result = await conn.client.callTool({
        name: 'get_random_fact',
        arguments: { category: 'animals' },
      });
      facts.add((result.structuredContent as { fact?: unknown } | undefined)?.fact);
    }
    expect(
      facts.size,
      `${RANDOM_CALLS} calls for animals gave the same fact every time: pick it at random`,
    ).toBeGreaterThan(1);
  });

  it('a category outside the enum is refused with isError before your code runs', async () => {
    const result = await conn.client.callTool({ name: 'get_random_fact', arguments: { category: 'sport' } });
    expect(result.isError, '"sport" should be refused with isError').toBe(true);
    expect(firstText(result), 'the SDK should reject "sport" against the enum').not.toMatch(/TODO/);
  });
});
