import { validateToolResult } from '@mcp-workshop/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';
import { CITIES } from '../weather/cities.js';

interface CityItem {
  name: string;
  countryCode: string;
}

describe('list_cities', () => {
  let conn: Connected;
  afterEach(async () => conn?.close());

  const call = async (args: Record<string, unknown>) => {
    // list_cities reads the dataset itself; deps.weather stays unset to prove it.
    conn = await connectInMemory(testDeps());
    const result = await conn.client.callTool({ name: 'list_cities', arguments: args });
    expect(validateToolResult(result).ok).toBe(true);
    return { result, text: (result.content as Array<{ text: string }>)[0]?.text ?? '' };
  };

  it('lists every dataset city as { items, count, country } when there is no filter', async () => {
    const { result, text } = await call({});
    expect(result.isError).toBe(false);
    const data = result.structuredContent as { items: CityItem[]; count: number; country: string | null };
    expect(data.country).toBeNull();
    expect(data.count).toBe(CITIES.length);
    expect(data.items).toHaveLength(data.count);
    expect(data.count).toBeGreaterThanOrEqual(40);
    expect(data.items.slice(0, 3).map((city) => city.name)).toEqual(['Oslo', 'Bergen', 'Trondheim']);
    expect(data.items[0]).toEqual({
      name: 'Oslo',
      country: 'Norway',
      countryCode: 'NO',
      latitude: 59.91,
      longitude: 10.75,
      timezone: 'Europe/Oslo',
    });
    expect(JSON.parse(text)).toEqual(result.structuredContent);
  });

  it.each(['Norway', 'norway', 'NO', 'no', ' NORWAY '])(
    'filters by country name or code (%j)',
    async (country) => {
      const { result } = await call({ country });
      expect(result.isError).toBe(false);
      expect(result.structuredContent).toMatchObject({ count: 3, country: 'Norway' });
      const items = (result.structuredContent as { items: CityItem[] }).items;
      expect(items.map((city) => city.name)).toEqual(['Oslo', 'Bergen', 'Trondheim']);
    },
  );

  it('understands common country aliases', async () => {
    const { result } = await call({ country: 'USA' });
    const data = result.structuredContent as { items: CityItem[]; country: string };
    expect(data.country).toBe('United States');
    expect(data.items.every((city) => city.countryCode === 'US')).toBe(true);
    expect(data.items.map((city) => city.name)).toContain('New York');
  });

  it('lists the valid countries for an unknown one', async () => {
    const { result, text } = await call({ country: 'Narnia' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(text).toMatch(
      /^No cities for country "Narnia" in the offline dataset\. Use one of: .*Norway \(NO\)/,
    );
    expect(text).toMatch(/call list_cities without a country/);
  });

  it.each([
    ['wrong type', { country: 47 }],
    ['empty', { country: '' }],
    ['oversized', { country: 'N'.repeat(10_000) }],
    ['a script tag', { country: '<script>alert(1)</script>' }],
    ['a null byte', { country: 'NO\u0000' }],
    ['a prototype key', { country: '__proto__' }],
  ])('rejects %s input with isError and no crash', async (_label, args) => {
    const { result } = await call(args);
    expect(result.isError).toBe(true);
  });

  it('advertises an object output schema and read-only, closed-world annotations', async () => {
    conn = await connectInMemory(testDeps());
    const { tools } = await conn.client.listTools();
    const tool = tools.find((entry) => entry.name === 'list_cities');
    expect(tool?.description).toMatch(/offline weather dataset/);
    expect(tool?.annotations).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(tool?.outputSchema?.type).toBe('object');
    expect(tool?.outputSchema?.required).toEqual(expect.arrayContaining(['items', 'count', 'country']));
  });
});
