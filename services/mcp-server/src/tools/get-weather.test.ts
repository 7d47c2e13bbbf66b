import { validateToolResult } from '@mcp-workshop/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';
import { createOfflineWeather } from '../weather/offline.js';

describe('get_weather', () => {
  let conn: Connected;
  afterEach(async () => conn?.close());

  const call = async (args: Record<string, unknown>, now = '2026-07-28T12:00:00Z') => {
    const clock = () => new Date(now);
    conn = await connectInMemory(testDeps({ now: clock, weather: createOfflineWeather(clock) }));
    const result = await conn.client.callTool({ name: 'get_weather', arguments: args });
    return { result, texts: (result.content as Array<{ text: string }>).map((block) => block.text) };
  };

  it('returns a structured report for Oslo that matches its JSON text', async () => {
    const { result, texts } = await call({ location: 'Oslo' });
    expect(validateToolResult(result).ok).toBe(true);
    expect(result.isError).toBe(false);
    // The client has already checked structuredContent against the tool's outputSchema.
    expect(result.structuredContent).toMatchObject({
      place: { name: 'Oslo', country: 'Norway', countryCode: 'NO', timezone: 'Europe/Oslo' },
      source: 'offline-dataset',
    });
    const report = result.structuredContent as { forecast: Array<{ date: string }>; current: object };
    expect(report.forecast.map((day) => day.date)).toEqual(['2026-07-28', '2026-07-29', '2026-07-30']);
    expect(Object.keys(report.current).sort()).toEqual(
      ['conditions', 'feelsLikeC', 'humidityPercent', 'temperatureC', 'weatherCode', 'windSpeedKmh'].sort(),
    );
    expect(JSON.parse(texts[0] ?? '')).toEqual(result.structuredContent);
    expect(texts[1]).toMatch(
      /^Oslo, Norway: -?\d+(\.\d)? °C, .+ now; next 3 day\(s\) .+ \(offline dataset, not a live forecast\)\.$/,
    );
  });

  it('returns the same result for the same place and date', async () => {
    const first = await call({ location: 'Bergen', days: 7 });
    await conn.close();
    const second = await call({ location: 'BERGEN, no', days: 7 });
    expect(second.result.structuredContent).toEqual(first.result.structuredContent);
    await conn.close();
    const nextWeek = await call({ location: 'Bergen', days: 7 }, '2026-08-04T12:00:00Z');
    expect(nextWeek.result.structuredContent).not.toEqual(first.result.structuredContent);
  });

  it.each([1, 7])('returns %i forecast day(s) when asked', async (days) => {
    const { result } = await call({ location: 'Tokyo', days });
    expect((result.structuredContent as { forecast: unknown[] }).forecast).toHaveLength(days);
  });

  it.each([
    ['zero', 0],
    ['above the maximum', 8],
    ['a fraction', 2.5],
    ['a string', '3'],
    ['negative', -1],
    ['null', null],
  ])('rejects days that are %s with isError', async (_label, days) => {
    const { result } = await call({ location: 'Oslo', days });
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
    expect(result.structuredContent).toBeUndefined();
  });

  it('suggests a close match for an unknown place', async () => {
    const { result, texts } = await call({ location: 'Osloo' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(texts[0]).toBe(
      'Unknown place "Osloo". Did you mean "Oslo"? Use list_cities to see every supported city.',
    );
  });

  it('points to list_cities when nothing is close', async () => {
    const { result, texts } = await call({ location: 'Atlantis' });
    expect(result.isError).toBe(true);
    expect(texts[0]).toMatch(/no city in the offline dataset has a similar name\. Use list_cities/);
  });

  it.each([
    ['missing', {}],
    ['wrong type', { location: 42 }],
    ['an array', { location: ['Oslo'] }],
    ['empty', { location: '' }],
    ['oversized', { location: 'A'.repeat(10_000) }],
    ['a script tag', { location: '<script>alert(1)</script>' }],
    ['a null byte', { location: 'Oslo\u0000' }],
    ['a prototype key', { location: '__proto__' }],
    ['a constructor key', { location: 'constructor' }],
  ])('rejects %s input with isError and no crash', async (_label, args) => {
    const { result } = await call(args);
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
  });

  it('ignores a __proto__ member in the arguments without polluting prototypes', async () => {
    const args = JSON.parse('{"location":"Oslo","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const { result } = await call(args);
    expect(result.isError).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps the hostile text out of the message except as a short quote', async () => {
    const { texts } = await call({ location: `${'x'.repeat(90)}<b>` });
    expect(texts[0]?.length).toBeLessThan(200);
  });

  it('advertises its schemas, description and annotations', async () => {
    conn = await connectInMemory(testDeps());
    const { tools } = await conn.client.listTools();
    const tool = tools.find((entry) => entry.name === 'get_weather');
    expect(tool?.title).toBe('Weather and forecast');
    expect(tool?.description).toMatch(/offline dataset/);
    expect(tool?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(tool?.inputSchema.required).toEqual(['location']);
    expect(tool?.inputSchema.properties?.days).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 7,
      default: 3,
    });
    expect(tool?.outputSchema?.type).toBe('object');
    expect(tool?.outputSchema?.required).toEqual(
      expect.arrayContaining(['place', 'current', 'forecast', 'source']),
    );
  });
});
