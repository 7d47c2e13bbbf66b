/**
 * @module tools/get-weather
 * `get_weather`: current conditions and a daily forecast for a place, from whichever weather
 * provider the server was given (the offline dataset by default). MCP Apps hosts draw the result in
 * the `ui://weather/forecast` view (`views/weather/`). Test: `get-weather.test.ts`.
 */
import { ok, ToolError } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool } from '../deps.js';
import { WEATHER_VIEW_URI } from '../resources/views.js';
import { CITIES } from '../weather/cities.js';
import { hasControlCharacters } from '../weather/lookup.js';
import { MAX_FORECAST_DAYS, type WeatherReport } from '../weather/provider.js';

/** Place names are short ("Rio de Janeiro, Brazil"); this caps hostile input. */
const MAX_LOCATION_LENGTH = 100;
/** Enough to plan a few days ahead without a week of numbers the user did not ask for. */
const DEFAULT_DAYS = 3;

const input = z.object({
  location: z
    .string()
    .min(1)
    .max(MAX_LOCATION_LENGTH)
    .refine((text) => !hasControlCharacters(text), 'must not contain control characters')
    .describe(
      'City name, optionally followed by a comma and the country name or ISO code, e.g. "Oslo", "Bergen, Norway" or "Paris, FR".',
    ),
  days: z
    .number()
    .int()
    .min(1)
    .max(MAX_FORECAST_DAYS)
    .default(DEFAULT_DAYS)
    .describe(
      `Number of forecast days, starting today, 1–${MAX_FORECAST_DAYS}. Defaults to ${DEFAULT_DAYS}.`,
    ),
});

const conditionsText = z
  .string()
  .describe('The weather code in English, e.g. "Partly cloudy" or "Light rain".');
const weatherCode = z.number().int().describe('WMO weather interpretation code, as Open-Meteo uses.');

export const output = z.object({
  place: z
    .object({
      name: z.string().describe('Place name as the weather source knows it, e.g. "Oslo".'),
      country: z.string().describe('Country name in English, e.g. "Norway".'),
      countryCode: z.string().describe('ISO 3166-1 alpha-2 country code, e.g. "NO".'),
      latitude: z.number().describe('Latitude in decimal degrees, north positive.'),
      longitude: z.number().describe('Longitude in decimal degrees, east positive.'),
      timezone: z.string().describe('IANA time zone of the place; forecast dates are local to it.'),
    })
    .describe('The place the weather is for.'),
  current: z
    .object({
      temperatureC: z.number().describe('Air temperature now, °C.'),
      feelsLikeC: z.number().describe('Apparent ("feels like") temperature now, °C.'),
      humidityPercent: z.number().describe('Relative humidity now, 0–100 %.'),
      windSpeedKmh: z.number().describe('Wind speed at 10 m now, km/h.'),
      weatherCode,
      conditions: conditionsText,
    })
    .describe('Conditions at the place right now.'),
  forecast: z
    .array(
      z
        .object({
          date: z.string().describe('Local date, YYYY-MM-DD; the first entry is today.'),
          minC: z.number().describe('Lowest temperature of the day, °C.'),
          maxC: z.number().describe('Highest temperature of the day, °C.'),
          precipitationMm: z.number().describe('Total rain and snow over the day, mm.'),
          weatherCode,
          conditions: conditionsText,
        })
        .describe('One day of forecast.'),
    )
    .describe('Daily forecast, one entry per requested day, starting today.'),
  source: z
    .enum(['offline-dataset', 'open-meteo'])
    .describe(
      '"offline-dataset": made-up but plausible numbers from a built-in dataset, not a real forecast. "open-meteo": live data.',
    ),
});

export const getWeather = defineTool({
  name: 'get_weather',
  title: 'Weather and forecast',
  description:
    'Get the current weather and a daily forecast (1–7 days, default 3) for a city. ' +
    `By default the server uses a built-in offline dataset of ${CITIES.length} large cities (see list_cities) whose numbers ` +
    'are plausible and repeatable but not a real forecast; the `source` field says which source answered. ' +
    'Returns the place, current conditions (temperature, feels-like, humidity, wind) and min/max/precipitation per day.',
  input,
  output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  ui: { resourceUri: WEATHER_VIEW_URI },
  async run({ location, days }, { deps, signal, log }) {
    const { source: weatherSource } = deps.weather;
    await log('debug', 'Looking up the weather', { days, source: weatherSource });
    let report: WeatherReport;
    try {
      report = await deps.weather.getWeather(location, days, signal);
    } catch (error) {
      // The place text is not logged: it is the user's input. The offline dataset only fails for unknown places.
      if (error instanceof ToolError)
        await log('warning', 'Unknown place, or the weather source could not answer', {
          source: weatherSource,
        });
      // A thrown ToolError becomes an isError result in defineTool.
      throw error;
    }
    const { place, current, forecast, source } = report;
    await log('info', `Weather for ${place.name}, ${place.country}`, { place: place.name, days, source });
    return ok({ place, current, forecast, source }, { summary: summarize(report) });
  },
});

/** One line for humans and clients that ignore structured content. */
function summarize({ place, current, forecast, source }: WeatherReport): string {
  const lows = forecast.map((day) => day.minC);
  const highs = forecast.map((day) => day.maxC);
  const range =
    forecast.length > 0
      ? `; next ${forecast.length} day(s) ${Math.min(...lows)} to ${Math.max(...highs)} °C`
      : '';
  const origin =
    source === 'offline-dataset' ? 'offline dataset, not a live forecast' : 'live data from Open-Meteo';
  return `${place.name}, ${place.country}: ${current.temperatureC} °C, ${current.conditions.toLowerCase()} now${range} (${origin}).`;
}
