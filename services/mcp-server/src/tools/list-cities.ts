/**
 * @module tools/list-cities
 * `list_cities`: the cities of the built-in offline weather dataset, optionally for one
 * country. The list case of the result contract: `{ items, count, country }`, never a bare
 * array. Test: `list-cities.test.ts`.
 */

import type { ToolSpec } from '@mcp-workshop/mcp-host/kit';
import { fail, okList } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool, type ToolDeps } from '../deps.js';
import { CITIES } from '../weather/cities.js';
import { findCountry, hasControlCharacters, listCountries, quoteForMessage } from '../weather/lookup.js';

/** The longest country name in the dataset is about 20 characters; this caps hostile input. */
const MAX_COUNTRY_LENGTH = 60;

const input = z.object({
  country: z
    .string()
    .min(1)
    .max(MAX_COUNTRY_LENGTH)
    .refine((text) => !hasControlCharacters(text), 'must not contain control characters')
    .optional()
    .describe(
      'Only list cities in this country: an English name or ISO 3166-1 alpha-2 code, e.g. "Norway" or "NO". Omit to list every city.',
    ),
});

const output = z.object({
  items: z
    .array(
      z
        .object({
          name: z.string().describe('City name; pass it to get_weather as `location`.'),
          country: z.string().describe('Country name in English.'),
          countryCode: z.string().describe('ISO 3166-1 alpha-2 country code.'),
          latitude: z.number().describe('Latitude in decimal degrees, north positive.'),
          longitude: z.number().describe('Longitude in decimal degrees, east positive.'),
          timezone: z.string().describe('IANA time zone; usable with get_time.'),
        })
        .describe('One city of the offline dataset.'),
    )
    .describe('The matching cities, in dataset order (Norway first, then by size).'),
  count: z.number().int().describe('Number of items.'),
  country: z
    .string()
    .nullable()
    .describe('The country the list was filtered to (its canonical English name), or null for every city.'),
});

/**
 * The tool as a spec, so exercise 07 (`exercises/07-tool-view`) can give it a view with
 * `defineTool({ ...listCitiesSpec, ui })` instead of copying the dataset and the lookup.
 */
export const listCitiesSpec = Object.freeze<ToolSpec<typeof input, typeof output, ToolDeps>>({
  name: 'list_cities',
  title: 'Cities with offline weather',
  description:
    "List the cities in the server's built-in offline weather dataset, which get_weather answers for by default. " +
    'Use it to find a supported city or check spelling before calling get_weather. ' +
    'Optionally filter by country name or ISO code.',
  input,
  output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ country }) {
    const filter = country === undefined ? undefined : findCountry(country);
    if (country !== undefined && !filter) {
      const known = listCountries()
        .map((entry) => `${entry.country} (${entry.countryCode})`)
        .join(', ');
      return fail(
        `No cities for country ${quoteForMessage(country)} in the offline dataset. Use one of: ${known}. Or call list_cities without a country to list every city.`,
      );
    }
    const cities = CITIES.filter((city) => !filter || city.countryCode === filter.countryCode).map(
      ({ name, country: countryName, countryCode, latitude, longitude, timezone }) => ({
        name,
        country: countryName,
        countryCode,
        latitude,
        longitude,
        timezone,
      }),
    );
    const summary = `${cities.length} cities${filter ? ` in ${filter.country}` : ''} in the offline weather dataset.`;
    return okList(cities, { country: filter?.country ?? null }, { summary });
  },
});

export const listCities = defineTool(listCitiesSpec);
