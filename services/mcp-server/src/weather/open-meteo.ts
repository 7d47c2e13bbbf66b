/**
 * @module weather/open-meteo
 * Live weather from Open-Meteo's free, keyless APIs: geocode the place name, then fetch the
 * forecast. Every answer is checked with zod and every failure becomes a `ToolError` the model
 * can act on. The HTTP plumbing is in `fetch-json.ts`. Test: `open-meteo.test.ts`.
 */
import { ToolError } from '@mcp-workshop/shared';
import { z } from 'zod';
import { fetchJson } from './fetch-json.js';
import { findCountry, normalizeName, quoteForMessage } from './lookup.js';
import { MAX_FORECAST_DAYS, type Place, type WeatherProvider, type WeatherReport } from './provider.js';
import { describeWeatherCode } from './wmo.js';

export const DEFAULT_GEOCODING_URL = 'https://geocoding-api.open-meteo.com/v1/search';
export const DEFAULT_FORECAST_URL = 'https://api.open-meteo.com/v1/forecast';

/** A handful of candidates lets "Paris, Texas" pick the right Paris without a second request. */
const GEOCODING_CANDIDATES = 5;
/** Upstream text that reaches the model (place names) is cut here; real names are far shorter. */
const MAX_UPSTREAM_TEXT = 100;
const CURRENT_FIELDS = 'temperature_2m,apparent_temperature,relative_humidity_2m,wind_speed_10m,weather_code';
const DAILY_FIELDS = 'weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum';

export interface OpenMeteoOptions {
  /** Geocoding search endpoint; {@link DEFAULT_GEOCODING_URL} in production. */
  geocodingUrl: string;
  /** Forecast endpoint; {@link DEFAULT_FORECAST_URL} in production. */
  forecastUrl: string;
  /** Limit for each upstream request, including reading its body. */
  timeoutMs: number;
  /** For tests and proxies; defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

const upstreamText = z.string().max(MAX_UPSTREAM_TEXT);

const GeocodingSchema = z.object({
  // Open-Meteo leaves `results` out entirely when nothing matches.
  results: z
    .array(
      z.object({
        name: upstreamText.min(1),
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        country: upstreamText.optional(),
        country_code: upstreamText.optional(),
        admin1: upstreamText.optional(),
        timezone: upstreamText.optional(),
      }),
    )
    .optional(),
});
type GeocodingResult = NonNullable<z.infer<typeof GeocodingSchema>['results']>[number];

const ForecastSchema = z.object({
  timezone: upstreamText.optional(),
  current: z.object({
    time: z.string(),
    temperature_2m: z.number(),
    apparent_temperature: z.number(),
    relative_humidity_2m: z.number().min(0).max(100),
    wind_speed_10m: z.number().min(0),
    weather_code: z.number().int(),
  }),
  daily: z
    .object({
      time: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)).min(1),
      weather_code: z.array(z.number().int()),
      temperature_2m_max: z.array(z.number()),
      temperature_2m_min: z.array(z.number()),
      precipitation_sum: z.array(z.number().min(0)),
    })
    .refine(
      (daily) =>
        [
          daily.weather_code,
          daily.temperature_2m_max,
          daily.temperature_2m_min,
          daily.precipitation_sum,
        ].every((column) => column.length === daily.time.length),
      'daily arrays differ in length',
    ),
});
type Forecast = z.infer<typeof ForecastSchema>;

/** The live provider. Makes two requests per call: geocoding, then forecast. */
export function createOpenMeteoWeather(options: OpenMeteoOptions): WeatherProvider {
  const request = { fetch: options.fetch ?? globalThis.fetch, timeoutMs: options.timeoutMs };
  return {
    source: 'open-meteo',
    async getWeather(location, days, signal) {
      const count = Math.min(MAX_FORECAST_DAYS, Math.max(1, Math.trunc(days)));
      const [name = '', ...rest] = location.split(',');
      const qualifier = rest.at(-1)?.trim();

      const geocodingUrl = withParams(options.geocodingUrl, {
        name: name.trim(),
        count: String(GEOCODING_CANDIDATES),
        language: 'en',
        format: 'json',
      });
      const geocoding = await fetchJson(geocodingUrl, GeocodingSchema, { ...request, signal });
      const candidates = geocoding.results ?? [];
      const match = qualifier ? candidates.find((c) => matchesQualifier(c, qualifier)) : candidates[0];
      if (!match) throw new ToolError(noMatchMessage(location, candidates));

      const forecastUrl = withParams(options.forecastUrl, {
        latitude: String(match.latitude),
        longitude: String(match.longitude),
        current: CURRENT_FIELDS,
        daily: DAILY_FIELDS,
        timezone: 'auto',
        forecast_days: String(count),
      });
      const forecast = await fetchJson(forecastUrl, ForecastSchema, { ...request, signal });
      return toReport(match, forecast, count);
    },
  };
}

function withParams(base: string, params: Record<string, string>): URL {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url;
}

/** "Paris, Texas", "Paris, FR", "Paris, France" and "Paris, UK" all narrow the candidates. */
function matchesQualifier(candidate: GeocodingResult, qualifier: string): boolean {
  const wanted = normalizeName(qualifier);
  const code = candidate.country_code?.toUpperCase();
  return (
    normalizeName(candidate.country ?? '') === wanted ||
    normalizeName(candidate.admin1 ?? '') === wanted ||
    code?.toLowerCase() === wanted ||
    (code !== undefined && findCountry(qualifier)?.countryCode === code)
  );
}

function noMatchMessage(location: string, candidates: readonly GeocodingResult[]): string {
  const shown = quoteForMessage(location);
  if (candidates.length === 0) {
    return `The weather service (open-meteo) found no place called ${shown}. Check the spelling, or try a nearby larger town.`;
  }
  const found = candidates.map((c) => [c.name, c.admin1, c.country].filter(Boolean).join(', ')).join('; ');
  return `The weather service (open-meteo) found no place matching ${shown}. Places with that name: ${found}. Name one of these countries or regions after a comma, or check the spelling.`;
}

function validZone(name: string | undefined): name is string {
  if (!name) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function toReport(match: GeocodingResult, forecast: Forecast, days: number): WeatherReport {
  const place: Place = {
    name: match.name,
    country: match.country ?? '',
    countryCode: match.country_code?.toUpperCase() ?? '',
    latitude: match.latitude,
    longitude: match.longitude,
    // The forecast's zone is what its dates are in, so it wins over the geocoder's.
    timezone: [forecast.timezone, match.timezone].find(validZone) ?? 'UTC',
  };
  const { current, daily } = forecast;
  return {
    place,
    current: {
      temperatureC: current.temperature_2m,
      feelsLikeC: current.apparent_temperature,
      humidityPercent: current.relative_humidity_2m,
      windSpeedKmh: current.wind_speed_10m,
      weatherCode: current.weather_code,
      conditions: describeWeatherCode(current.weather_code),
    },
    forecast: daily.time.slice(0, days).map((date, i) => {
      const weatherCode = daily.weather_code[i] ?? 0;
      return {
        date,
        minC: daily.temperature_2m_min[i] ?? 0,
        maxC: daily.temperature_2m_max[i] ?? 0,
        precipitationMm: daily.precipitation_sum[i] ?? 0,
        weatherCode,
        conditions: describeWeatherCode(weatherCode),
      };
    }),
    source: 'open-meteo',
  };
}
