/**
 * @module prompts/plan-trip
 * `plan_trip`: fetches the forecast for a dataset city, embeds it as a `weather://` resource and
 * asks the model for a day-by-day plan around it. Test: `plan-trip.test.ts`.
 */

import { cacheJsonSchema, invalidArgument, promptText, runPrompt } from '@mcp-workshop/mcp-host/kit';
import { completable, type GetPromptResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolDeps } from '../deps.js';
import { CITIES, type City } from '../weather/cities.js';
import { findCity, normalizeName, quoteForMessage, suggestCities } from '../weather/lookup.js';
import { MAX_FORECAST_DAYS, type WeatherReport } from '../weather/provider.js';
import type { WorkshopPrompt } from './index.js';

const NAME = 'plan_trip';
/** Place names are short ("Rio de Janeiro, Brazil"); the same cap as get_weather's location. */
const MAX_CITY_LENGTH = 100;
/** A long weekend: enough to plan, short enough that the forecast still means something. */
const DEFAULT_DAYS = 3;
/** "1".."7": prompt arguments are strings on the wire, so the day count is an enum of strings. */
export const DAY_CHOICES = Array.from({ length: MAX_FORECAST_DAYS }, (_, i) => String(i + 1));

/** Each city with the normalized forms of its name and aliases, computed once. */
const cityKeys = CITIES.map((city) => ({
  name: city.name,
  keys: [city.name, ...city.aliases].map(normalizeName),
}));

/**
 * Dataset city names whose name or alias starts with what was typed, ignoring case and accents
 * ("sao" → "São Paulo", "bom" → "Mumbai"), in dataset order (Norway first). The SDK cuts the
 * list at 100 and sets `total` and `hasMore`.
 */
export function completeCity(value: string): string[] {
  const query = normalizeName(value);
  return cityKeys.filter(({ keys }) => keys.some((key) => key.startsWith(query))).map(({ name }) => name);
}

/** The -32602 message for a city the dataset lacks, with close matches when there are any. */
export function unknownCityMessage(city: string): string {
  const names = suggestCities(city).map((entry) => `"${entry.name}"`);
  const hint =
    names.length === 0
      ? ' No city in the offline dataset has a similar name.'
      : ` Did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}?`;
  return `Unknown city ${quoteForMessage(city)}.${hint} Complete the city argument to see the ${CITIES.length} supported cities.`;
}

/**
 * Built once per process: building it was over half the cost of `createMcpServer`, which runs per
 * session and per request. Its JSON Schema for `prompts/list` is cached too (cached-schema.ts).
 */
const argsSchema = cacheJsonSchema(
  z.object({
    city: completable(
      promptText(MAX_CITY_LENGTH)
        .min(1)
        .describe(
          `One of the server's ${CITIES.length} dataset cities, e.g. "Oslo" or "São Paulo"; ask for completions to see them.`,
        ),
      completeCity,
    ),
    days: completable(
      z
        .enum(DAY_CHOICES)
        .describe(`How many days to plan, "1" to "${MAX_FORECAST_DAYS}". Defaults to "${DEFAULT_DAYS}".`),
      (value: string) => DAY_CHOICES.filter((choice) => choice.startsWith(value.trim())),
    ).optional(),
  }),
);

export const planTrip: WorkshopPrompt = {
  name: NAME,
  scopes: [],
  register(server, { deps }) {
    server.registerPrompt(
      NAME,
      {
        title: 'Plan a trip around the weather',
        description:
          `Plan a trip of 1–${MAX_FORECAST_DAYS} days to one of the ${CITIES.length} dataset cities, day by day, ` +
          'around its weather forecast. The forecast is fetched now and embedded in the prompt.',
        argsSchema,
      },
      ({ city, days }, ctx) =>
        runPrompt(NAME, deps.logger, () =>
          buildPlanTrip(deps, city, Number(days ?? DEFAULT_DAYS), ctx.mcpReq.signal),
        ),
    );
  },
};

async function buildPlanTrip(
  deps: ToolDeps,
  cityText: string,
  days: number,
  signal: AbortSignal,
): Promise<GetPromptResult> {
  // Checked here, not left to the provider: completion offers dataset cities, and a provider
  // error could also mean "upstream down", which is not the caller's fault.
  const city = findCity(cityText);
  if (!city) throw invalidArgument(NAME, unknownCityMessage(cityText));
  const report = await deps.weather.getWeather(qualifiedName(city), days, signal);
  const { place, forecast } = report;
  return {
    description: `A ${forecast.length}-day trip to ${place.name}, ${place.country}, planned around its forecast.`,
    messages: [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: `weather://${encodeURIComponent(place.name)}`,
            mimeType: 'application/json',
            text: JSON.stringify(report, null, 2),
          },
        },
      },
      { role: 'user', content: { type: 'text', text: instructions(report) } },
    ],
  };
}

/** "Santiago, CL": the country code keeps a live geocoder from picking a namesake elsewhere. */
function qualifiedName(city: City): string {
  return `${city.name}, ${city.countryCode}`;
}

function instructions({ place, forecast, source }: WeatherReport): string {
  const first = forecast[0]?.date;
  const origin =
    source === 'offline-dataset'
      ? 'made-up but plausible numbers from the server’s offline dataset, not a real forecast'
      : 'live data from Open-Meteo';
  return [
    `Plan a ${forecast.length}-day trip to ${place.name}, ${place.country}${first ? `, starting ${first}` : ''}, ` +
      `around the weather forecast above (${origin}; dates are local to ${place.timezone}).`,
    'For each day, suggest activities that suit that day’s weather: outdoor plans on dry, mild days and ' +
      'indoor alternatives when rain, snow, wind or extreme temperatures are forecast. Say what to wear and pack.',
    'If you need fresher numbers or more days, call the get_weather tool. Offer to put bookings and packing ' +
      'items on the user’s task list with the add_task tool.',
  ].join('\n\n');
}
