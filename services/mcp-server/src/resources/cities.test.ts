import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';
import { CITIES } from '../weather/cities.js';

describe('cities://all', () => {
  let conn: Connected;
  beforeEach(async () => {
    conn = await connectInMemory(testDeps());
  });
  afterEach(async () => conn.close());

  it('reads every offline city as JSON { items, count }, in dataset order', async () => {
    const { contents } = await conn.client.readResource({ uri: 'cities://all' });
    const [item] = contents as Array<{ uri: string; mimeType: string; text: string }>;
    expect(item).toMatchObject({ uri: 'cities://all', mimeType: 'application/json' });
    const body = JSON.parse(item?.text ?? '');
    expect(body.count).toBe(CITIES.length);
    expect(body.items.map((city: { name: string }) => city.name)).toEqual(CITIES.map((city) => city.name));
    expect(body.items[0]).toEqual({
      name: 'Oslo',
      country: 'Norway',
      countryCode: 'NO',
      latitude: expect.any(Number),
      longitude: expect.any(Number),
      timezone: 'Europe/Oslo',
      aliases: expect.any(Array),
    });
  });

  it('keeps the climate numbers behind the offline weather out of the resource', async () => {
    const { contents } = await conn.client.readResource({ uri: 'cities://all' });
    expect((contents[0] as { text: string }).text).not.toMatch(/climate|janMeanC/);
  });
});
