/**
 * The weather view's pure logic: reading a `get_weather` result, °C/°F conversion, and how many days
 * "More days" asks for. Kept apart from the DOM so `model.test.ts` can check it. Partner: `main.ts`.
 */
import { z } from 'zod';
import type { output } from '../../../src/tools/get-weather.js';

/** The server's cap on forecast days (`MAX_FORECAST_DAYS` in src/weather/provider.ts). */
export const MAX_DAYS = 7;
/** "More days" adds this many, up to `MAX_DAYS`. */
export const MORE_DAYS_STEP = 2;

export type Unit = 'C' | 'F';

const day = z.object({
  date: z.string(),
  minC: z.number(),
  maxC: z.number(),
  precipitationMm: z.number(),
  conditions: z.string(),
});

/** The parts of `get_weather`'s `structuredContent` the card draws; anything else is ignored. */
export const weatherSchema = z.object({
  place: z.object({ name: z.string(), country: z.string(), countryCode: z.string() }),
  current: z.object({
    temperatureC: z.number(),
    feelsLikeC: z.number(),
    humidityPercent: z.number(),
    windSpeedKmh: z.number(),
    conditions: z.string(),
  }),
  forecast: z.array(day),
  source: z.enum(['offline-dataset', 'open-meteo']),
});

export type Weather = z.infer<typeof weatherSchema>;

/** What `get_weather` returns (its `output` schema): tsc fails here if it stops giving the card what it draws. */
export type WeatherResult = Drawable<z.output<typeof output>>;
type Drawable<T extends Weather> = T;

/** The report in `structuredContent`, or undefined when it is not one (a failure, another tool). */
export function parseWeather(structuredContent: unknown): Weather | undefined {
  const parsed = weatherSchema.safeParse(structuredContent);
  return parsed.success ? parsed.data : undefined;
}

/** `celsius` in `unit`, rounded to one decimal, with its sign: "21.5 °C", "70.7 °F". */
export function formatTemperature(celsius: number, unit: Unit): string {
  const value = unit === 'C' ? celsius : (celsius * 9) / 5 + 32;
  return `${Math.round(value * 10) / 10} °${unit}`;
}

/** The `days` argument of the next "More days" call, or undefined once the forecast is as long as it gets. */
export function nextDays(shown: number): number | undefined {
  if (!Number.isInteger(shown) || shown < 0 || shown >= MAX_DAYS) return undefined;
  return Math.min(MAX_DAYS, Math.max(shown, 1) + MORE_DAYS_STEP);
}

/** The `location` argument that finds this place again: what the model asked for, else name and country code. */
export function locationOf(weather: Weather, askedFor: unknown): string {
  if (typeof askedFor === 'string' && askedFor.trim() !== '') return askedFor;
  return `${weather.place.name}, ${weather.place.countryCode}`;
}
