/**
 * @module resources/cities
 * `cities://all`: the offline weather dataset's cities, so a client can attach the list as context
 * instead of calling `list_cities`. Test: `cities.test.ts`.
 */
import type { CacheHint, McpServer } from '@modelcontextprotocol/server';
import { CITIES } from '../weather/cities.js';
import { JSON_MIME, jsonContents } from './contents.js';

export const CITIES_URI = 'cities://all';

/** The dataset is compiled in: it changes only with a new release. */
const CITIES_CACHE_HINT: CacheHint = { ttlMs: 3_600_000, cacheScope: 'public' };

/** The same fields `list_cities` returns; the climate numbers behind the offline weather stay private. */
function cityItems() {
  return CITIES.map(({ name, country, countryCode, latitude, longitude, timezone, aliases }) => ({
    name,
    country,
    countryCode,
    latitude,
    longitude,
    timezone,
    aliases,
  }));
}

export function registerCityResources(server: McpServer): void {
  server.registerResource(
    'cities',
    CITIES_URI,
    {
      title: 'Offline weather cities',
      description: `The ${CITIES.length} cities get_weather knows offline, as JSON { items, count }: name, country, coordinates, time zone and aliases.`,
      mimeType: JSON_MIME,
      cacheHint: CITIES_CACHE_HINT,
    },
    (uri) => {
      const items = cityItems();
      return jsonContents(uri.href, { items, count: items.length });
    },
  );
}
