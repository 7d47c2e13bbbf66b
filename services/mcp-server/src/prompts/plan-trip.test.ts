import { ToolError } from '@mcp-workshop/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolDeps } from '../deps.js';
import { type Connected, connectInMemory } from '../test-support/in-memory.js';
import { CITIES } from '../weather/cities.js';
import type { WeatherProvider, WeatherReport } from '../weather/provider.js';
import { completeCity, DAY_CHOICES, unknownCityMessage } from './plan-trip.js';
import { createPromptFixture, type PromptFixture } from './test-support/fixture.js';

describe('plan_trip', () => {
  let fixture: PromptFixture;
  let conn: Connected;
  beforeEach(() => {
    fixture = createPromptFixture();
  });
  afterEach(async () => {
    await conn?.close();
    fixture.cleanup();
  });

  const connect = async (overrides: Partial<ToolDeps> = {}) => {
    conn = await connectInMemory({ ...fixture.deps, ...overrides });
    return conn.client;
  };
  const get = async (args: Record<string, string>) =>
    (await connect()).getPrompt({ name: 'plan_trip', arguments: args });
  const complete = async (name: string, value: string) =>
    (
      await (
        await connect()
      ).complete({
        ref: { type: 'ref/prompt', name: 'plan_trip' },
        argument: { name, value },
      })
    ).completion;

  it('embeds a 3-day forecast as a weather:// resource and asks for a plan when days is omitted', async () => {
    const result = await get({ city: 'Oslo' });
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'user']);
    const [forecast, ask] = result.messages.map((message) => message.content);
    expect(forecast).toMatchObject({
      type: 'resource',
      resource: { uri: 'weather://Oslo', mimeType: 'application/json' },
    });
    const report = JSON.parse(
      forecast?.type === 'resource' && 'text' in forecast.resource ? forecast.resource.text : '',
    ) as WeatherReport;
    expect(report.place).toMatchObject({ name: 'Oslo', countryCode: 'NO' });
    expect(report.forecast.map((day) => day.date)).toEqual(['2026-07-28', '2026-07-29', '2026-07-30']);
    expect(ask?.type).toBe('text');
    const text = ask?.type === 'text' ? ask.text : '';
    expect(text).toMatch(/^Plan a 3-day trip to Oslo, Norway, starting 2026-07-28/);
    expect(text).toMatch(/offline dataset, not a real forecast/);
    expect(text).toMatch(/get_weather/);
    expect(text).toMatch(/add_task/);
    expect(result.description).toMatch(/3-day trip to Oslo/);
  });

  it('embeds the same forecast get_weather returns for the city and day count', async () => {
    const client = await connect();
    const prompt = await client.getPrompt({ name: 'plan_trip', arguments: { city: 'bergen', days: '5' } });
    const tool = await client.callTool({ name: 'get_weather', arguments: { location: 'Bergen', days: 5 } });
    const block = prompt.messages[0]?.content;
    const text = block?.type === 'resource' && 'text' in block.resource ? block.resource.text : '';
    expect(JSON.parse(text)).toEqual(tool.structuredContent);
  });

  it.each([
    ['1', 1],
    ['7', 7],
  ])('returns %s forecast day(s) when days is "%s"', async (days, count) => {
    const result = await get({ city: 'Tokyo', days });
    const block = result.messages[0]?.content;
    const text = block?.type === 'resource' && 'text' in block.resource ? block.resource.text : '';
    expect((JSON.parse(text) as WeatherReport).forecast).toHaveLength(count);
  });

  it('percent-encodes the city in the resource URI when the name has spaces and accents', async () => {
    const result = await get({ city: 'sao paulo' });
    expect(result.messages[0]?.content).toMatchObject({ resource: { uri: 'weather://S%C3%A3o%20Paulo' } });
  });

  it('answers -32602 with close matches when the city is unknown', async () => {
    await expect(get({ city: 'Osloo' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown city "Osloo". Did you mean "Oslo"?'),
    });
  });

  it('says no city is similar when nothing is close', () => {
    expect(unknownCityMessage('Atlantis')).toBe(
      `Unknown city "Atlantis". No city in the offline dataset has a similar name. Complete the city argument to see the ${CITIES.length} supported cities.`,
    );
  });

  it('answers -32602 when the required city is missing', async () => {
    await expect(get({})).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/city/) });
  });

  it.each(['0', '8', '2.5', 'three', ' 3', ''])('answers -32602 when days is %j', async (days) => {
    await expect(get({ city: 'Oslo', days })).rejects.toMatchObject({ code: -32602 });
  });

  it.each([
    ['oversized', 'A'.repeat(10_000)],
    ['a null byte', 'Oslo\u0000'],
    ['an escape sequence', '\u001b[31mOslo'],
    ['a prototype key', '__proto__'],
    ['a constructor key', 'constructor'],
    ['a script tag', '<script>alert(1)</script>'],
    ['empty', ''],
  ])('answers -32602 without crashing when the city is %s', async (_label, city) => {
    const client = await connect();
    const error = await client.getPrompt({ name: 'plan_trip', arguments: { city } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message.length).toBeLessThan(400);
    // The server is still healthy afterwards.
    await expect(client.getPrompt({ name: 'plan_trip', arguments: { city: 'Oslo' } })).resolves.toBeDefined();
  });

  it('ignores a __proto__ member in the arguments without polluting prototypes', async () => {
    const args = JSON.parse('{"city":"Oslo","__proto__":{"polluted":"yes"}}') as Record<string, string>;
    await expect(get(args)).resolves.toBeDefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers -32603 with the source’s message when the weather source is down', async () => {
    const down: WeatherProvider = {
      source: 'open-meteo',
      getWeather: async () => {
        throw new ToolError('Open-Meteo did not answer within 5000 ms. Try again later.');
      },
    };
    const client = await connect({ weather: down });
    await expect(client.getPrompt({ name: 'plan_trip', arguments: { city: 'Oslo' } })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('Open-Meteo did not answer'),
    });
  });

  it('answers -32603 with only a reference when the weather source has a bug', async () => {
    const broken: WeatherProvider = {
      source: 'offline-dataset',
      getWeather: async () => {
        throw new Error('ENOENT /secret/path/cities.db');
      },
    };
    const client = await connect({ weather: broken });
    const error = await client
      .getPrompt({ name: 'plan_trip', arguments: { city: 'Oslo' } })
      .catch((e: unknown) => e as Error);
    expect(error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/internal error \(ref \w{8}\)/),
    });
    expect(error.message).not.toContain('secret');
  });

  describe('completion', () => {
    it('completes a city prefix in dataset order, ignoring case', async () => {
      expect(await complete('city', 'os')).toEqual({ values: ['Oslo', 'Osaka'], total: 2, hasMore: false });
      expect((await complete('city', 'OS')).values).toEqual(['Oslo', 'Osaka']);
    });

    it('ignores accents and matches aliases, answering with the dataset name', () => {
      expect(completeCity('sao')).toEqual(['São Paulo']);
      expect(completeCity('SÃO P')).toEqual(['São Paulo']);
      expect(completeCity('reykjav')).toEqual(['Reykjavík']);
      expect(completeCity('bom')).toEqual(['Mumbai']);
    });

    it('offers every city, at most 100, when nothing is typed', async () => {
      const completion = await complete('city', '');
      expect(completion.values).toEqual(CITIES.slice(0, 100).map((city) => city.name));
      expect(completion.values.length).toBeLessThanOrEqual(100);
      expect(completion.total).toBe(CITIES.length);
      expect(completion.hasMore).toBe(CITIES.length > 100);
    });

    it.each([
      ['nothing matches', 'zzz'],
      ['the value is huge', 'o'.repeat(10_000)],
      ['the value is a prototype key', '__proto__'],
    ])('returns no values when %s', async (_label, value) => {
      expect(await complete('city', value)).toMatchObject({ values: [], hasMore: false });
    });

    it('offers only clean dataset names when the typed value has control characters', async () => {
      // Suggestions replace the value, so the null byte never reaches prompts/get.
      expect((await complete('city', 'os\u0000')).values).toEqual(['Oslo', 'Osaka']);
    });

    it('completes days from "1" to "7"', async () => {
      expect(DAY_CHOICES).toEqual(['1', '2', '3', '4', '5', '6', '7']);
      expect((await complete('days', '')).values).toEqual(DAY_CHOICES);
      expect((await complete('days', '7')).values).toEqual(['7']);
      expect((await complete('days', '9')).values).toEqual([]);
    });
  });
});
