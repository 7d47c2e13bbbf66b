import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateToolResult } from '@mcp-workshop/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';
import { createOpenMeteoWeather, DEFAULT_FORECAST_URL, DEFAULT_GEOCODING_URL } from './open-meteo.js';

/** What the fake upstream sends for one endpoint: a status and raw body, or nothing at all. */
type Reply = { status: number; body: string } | 'hang';

/** The client's timeout where the upstream never answers: short, as nothing else can end that call. */
const HANG_TIMEOUT_MS = 200;
/** The client's timeout where the upstream answers: a safety net, so a busy machine is no failure. */
const ANSWER_TIMEOUT_MS = 15_000;

// Recorded from the real APIs (trimmed), so the schemas are tested against what Open-Meteo sends.
const GEOCODING_OSLO = {
  results: [
    {
      id: 3143244,
      name: 'Oslo',
      latitude: 59.91273,
      longitude: 10.74609,
      elevation: 26,
      feature_code: 'PPLC',
      country_code: 'NO',
      admin1_id: 3143242,
      timezone: 'Europe/Oslo',
      population: 580000,
      country_id: 3144096,
      country: 'Norway',
      admin1: 'Oslo',
    },
  ],
  generationtime_ms: 0.7,
};

const GEOCODING_PARIS = {
  results: [
    {
      id: 2988507,
      name: 'Paris',
      latitude: 48.85341,
      longitude: 2.3488,
      country_code: 'FR',
      timezone: 'Europe/Paris',
      country: 'France',
      admin1: 'Île-de-France',
    },
    {
      id: 4717560,
      name: 'Paris',
      latitude: 33.66094,
      longitude: -95.55551,
      country_code: 'US',
      timezone: 'America/Chicago',
      country: 'United States',
      admin1: 'Texas',
    },
  ],
  generationtime_ms: 0.5,
};

const FORECAST_OSLO = {
  latitude: 59.9,
  longitude: 10.75,
  generationtime_ms: 0.05,
  utc_offset_seconds: 7200,
  timezone: 'Europe/Oslo',
  timezone_abbreviation: 'GMT+2',
  elevation: 26,
  current_units: {
    time: 'iso8601',
    interval: 'seconds',
    temperature_2m: '°C',
    apparent_temperature: '°C',
    relative_humidity_2m: '%',
    wind_speed_10m: 'km/h',
    weather_code: 'wmo code',
  },
  current: {
    time: '2026-07-28T14:00',
    interval: 900,
    temperature_2m: 18.4,
    apparent_temperature: 17.1,
    relative_humidity_2m: 62,
    wind_speed_10m: 11.2,
    weather_code: 2,
  },
  daily_units: {
    time: 'iso8601',
    weather_code: 'wmo code',
    temperature_2m_max: '°C',
    temperature_2m_min: '°C',
    precipitation_sum: 'mm',
  },
  daily: {
    time: ['2026-07-28', '2026-07-29', '2026-07-30'],
    weather_code: [2, 61, 3],
    temperature_2m_max: [20.1, 17.3, 19],
    temperature_2m_min: [12.4, 11.8, 12],
    precipitation_sum: [0, 4.2, 0.3],
  },
};

const json = (body: unknown, status = 200): Reply => ({ status, body: JSON.stringify(body) });

describe('open-meteo weather', () => {
  let upstream: Server;
  let base: string;
  let replies: { geocoding: Reply; forecast: Reply };
  let received: URL[];
  let conn: Connected | undefined;

  beforeEach(async () => {
    replies = { geocoding: json(GEOCODING_OSLO), forecast: json(FORECAST_OSLO) };
    received = [];
    upstream = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      received.push(url);
      const reply = url.pathname === '/v1/search' ? replies.geocoding : replies.forecast;
      if (reply === 'hang') return; // Never answer: the client's timeout must end the wait.
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    await conn?.close();
    conn = undefined;
    upstream.closeAllConnections();
    upstream.close();
  });

  const provider = (root = base, timeoutMs = ANSWER_TIMEOUT_MS) =>
    createOpenMeteoWeather({
      geocodingUrl: `${root}/v1/search`,
      forecastUrl: `${root}/v1/forecast`,
      timeoutMs,
    });

  const callTool = async (args: Record<string, unknown>, root = base, timeoutMs = ANSWER_TIMEOUT_MS) => {
    conn = await connectInMemory(testDeps({ weather: provider(root, timeoutMs) }));
    const result = await conn.client.callTool({ name: 'get_weather', arguments: args });
    expect(validateToolResult(result).ok).toBe(true);
    return { result, text: (result.content as Array<{ text: string }>)[0]?.text ?? '' };
  };

  it('points at the real Open-Meteo endpoints by default', () => {
    expect(DEFAULT_GEOCODING_URL).toBe('https://geocoding-api.open-meteo.com/v1/search');
    expect(DEFAULT_FORECAST_URL).toBe('https://api.open-meteo.com/v1/forecast');
  });

  it('maps a real-format answer to a report that passes the output schema', async () => {
    const { result, text } = await callTool({ location: 'Oslo', days: 3 });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      place: {
        name: 'Oslo',
        country: 'Norway',
        countryCode: 'NO',
        latitude: 59.91273,
        longitude: 10.74609,
        timezone: 'Europe/Oslo',
      },
      current: {
        temperatureC: 18.4,
        feelsLikeC: 17.1,
        humidityPercent: 62,
        windSpeedKmh: 11.2,
        weatherCode: 2,
        conditions: 'Partly cloudy',
      },
      forecast: [
        {
          date: '2026-07-28',
          minC: 12.4,
          maxC: 20.1,
          precipitationMm: 0,
          weatherCode: 2,
          conditions: 'Partly cloudy',
        },
        {
          date: '2026-07-29',
          minC: 11.8,
          maxC: 17.3,
          precipitationMm: 4.2,
          weatherCode: 61,
          conditions: 'Light rain',
        },
        {
          date: '2026-07-30',
          minC: 12,
          maxC: 19,
          precipitationMm: 0.3,
          weatherCode: 3,
          conditions: 'Overcast',
        },
      ],
      source: 'open-meteo',
    });
    expect(JSON.parse(text)).toEqual(result.structuredContent);
  });

  it('sends the query parameters Open-Meteo expects', async () => {
    await callTool({ location: 'Oslo, Norway', days: 5 });
    const [geocoding, forecast] = received;
    expect(geocoding?.pathname).toBe('/v1/search');
    expect(Object.fromEntries(geocoding?.searchParams ?? [])).toEqual({
      name: 'Oslo',
      count: '5',
      language: 'en',
      format: 'json',
    });
    expect(forecast?.pathname).toBe('/v1/forecast');
    expect(Object.fromEntries(forecast?.searchParams ?? [])).toEqual({
      latitude: '59.91273',
      longitude: '10.74609',
      current: 'temperature_2m,apparent_temperature,relative_humidity_2m,wind_speed_10m,weather_code',
      daily: 'weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum',
      timezone: 'auto',
      forecast_days: '5',
    });
  });

  it('picks the candidate in the named country or region', async () => {
    replies.geocoding = json(GEOCODING_PARIS);
    const { result } = await callTool({ location: 'Paris, Texas', days: 1 });
    expect(result.isError).toBe(false);
    expect(received[1]?.searchParams.get('latitude')).toBe('33.66094');
    expect(received[0]?.searchParams.get('name')).toBe('Paris');
  });

  it('lists the candidates when none is in the named country', async () => {
    replies.geocoding = json(GEOCODING_PARIS);
    const { result, text } = await callTool({ location: 'Paris, Japan' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(
      /no place matching "Paris, Japan".*Paris, Île-de-France, France; Paris, Texas, United States/,
    );
  });

  it('suggests checking the spelling when geocoding finds nothing', async () => {
    replies.geocoding = json({ generationtime_ms: 0.3 });
    const { result, text } = await callTool({ location: 'Osloo' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/found no place called "Osloo"\. Check the spelling/);
    expect(received).toHaveLength(1);
  });

  it('reports an upstream 500 as a temporary problem', async () => {
    replies.forecast = { status: 500, body: '<html>Internal Server Error</html>' };
    const { result, text } = await callTool({ location: 'Oslo' });
    expect(result.isError).toBe(true);
    expect(text).toBe('The weather service (open-meteo) is having problems (HTTP 500). Try again later.');
  });

  it('passes on the reason Open-Meteo gives for a 400', async () => {
    replies.forecast = json({ error: true, reason: 'Forecast days is invalid. Allowed range 0 to 16.' }, 400);
    const { result, text } = await callTool({ location: 'Oslo' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(
      /rejected the request \(HTTP 400: "Forecast days is invalid\. Allowed range 0 to 16\."\)/,
    );
  });

  it('gives up with a clear message when the upstream hangs', async () => {
    // The upstream never answers: only the client's own timeout can end the call.
    replies.geocoding = 'hang';
    const { result, text } = await callTool({ location: 'Oslo' }, base, HANG_TIMEOUT_MS);
    expect(result.isError).toBe(true);
    expect(text).toBe(
      `The weather service (open-meteo) did not answer within ${HANG_TIMEOUT_MS} ms. Try again later.`,
    );
  });

  it('says the service could not be reached when the connection is refused', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const { result, text } = await callTool({ location: 'Oslo' }, `http://127.0.0.1:${port}`);
    expect(result.isError).toBe(true);
    expect(text).toMatch(
      /^The weather service \(open-meteo\) could not be reached \(ECONNREFUSED\)\..*try again later\.$/,
    );
  });

  it('refuses a body that is not JSON', async () => {
    replies.forecast = { status: 200, body: '{"current": {"temperature_2m": 18.4,' };
    const { result, text } = await callTool({ location: 'Oslo' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/malformed answer \(not valid JSON\)/);
  });

  it.each([
    [
      'a missing field',
      { ...FORECAST_OSLO, current: { ...FORECAST_OSLO.current, temperature_2m: undefined } },
    ],
    ['a string for a number', { ...FORECAST_OSLO, current: { ...FORECAST_OSLO.current, weather_code: '2' } }],
    [
      'daily columns of different lengths',
      { ...FORECAST_OSLO, daily: { ...FORECAST_OSLO.daily, weather_code: [2] } },
    ],
    [
      'null daily values',
      { ...FORECAST_OSLO, daily: { ...FORECAST_OSLO.daily, temperature_2m_max: [null, 1, 2] } },
    ],
    ['an array root', [FORECAST_OSLO]],
  ])('refuses a forecast with %s', async (_label, body) => {
    replies.forecast = json(body);
    const { result, text } = await callTool({ location: 'Oslo' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/answer in an unexpected format/);
  });

  it('refuses a geocoding answer whose coordinates are out of range', async () => {
    replies.geocoding = json({ results: [{ ...GEOCODING_OSLO.results[0], latitude: 123 }] });
    const { result, text } = await callTool({ location: 'Oslo' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/unexpected format/);
  });

  it('stops reading an oversized answer', async () => {
    replies.geocoding = { status: 200, body: `{"results":[],"pad":"${'x'.repeat(1_100_000)}"}` };
    const { result, text } = await callTool({ location: 'Oslo' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/larger than 1000000 bytes/);
  });

  it('stops when the caller cancels', async () => {
    replies.geocoding = 'hang';
    const attempt = provider().getWeather('Oslo', 3, AbortSignal.abort());
    await expect(attempt).rejects.toThrow('The weather request was cancelled.');
  });
});
