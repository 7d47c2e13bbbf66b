/**
 * @module 09-findable-tool/starter/get-almanac
 * Exercise 09: make `get_almanac` findable. The tool works; the model just does not pick it.
 * Change only the descriptions (the name is published: clients already call it). `pnpm exercise 09`
 * asks the questions in `../cases.eval.yaml` through `pnpm eval` and says which tool was picked instead.
 */
import { defineTool } from '@mcp-workshop/mcp-server';
import { fail, ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { findSunCity, isCalendarDate, localClock, localDate, SUN_CITIES, sunDay } from '../../data/sun.js';

const input = z.object({
  // TODO(exercise 09): say which cities it knows, and in what form a model should pass one.
  city: z.string().min(1).max(60).describe('The city.'),
  // TODO(exercise 09): say the format, and what happens when it is left out.
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
    .optional()
    .describe('The date.'),
});

const output = z.object({
  city: z.string().describe('The city the answer is for.'),
  date: z.string().describe('The local date, YYYY-MM-DD.'),
  timezone: z.string().describe('The IANA time zone of the local times.'),
  sunrise: z
    .string()
    .nullable()
    .describe('Local time of sunrise, HH:MM; null when the sun does not rise or set that day.'),
  sunset: z
    .string()
    .nullable()
    .describe('Local time of sunset, HH:MM; null when the sun does not rise or set that day.'),
  dayLengthMinutes: z
    .number()
    .int()
    .describe('Minutes from sunrise to sunset: 0 in polar night, 1440 under the midnight sun.'),
  note: z
    .string()
    .nullable()
    .describe('"midnight sun" or "polar night" when there is no sunrise or sunset, else null.'),
});

export const getAlmanac = defineTool({
  name: 'get_almanac',
  title: 'Almanac',
  // TODO(exercise 09): this is all the model reads. Which questions should land here, in their words?
  description: 'Almanac data.',
  input,
  output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ city, date }, { deps }) {
    const found = findSunCity(city);
    if (!found) {
      const known = SUN_CITIES.map((entry) => entry.name).join(', ');
      return fail(`No almanac for "${city}". Try one of: ${known}.`);
    }
    const day = date ?? localDate(deps.now(), found.timezone);
    if (!isCalendarDate(day))
      return fail(`"${day}" is not a day on the calendar. Pass YYYY-MM-DD, e.g. "2026-06-21".`);
    const sun = sunDay(found, day);
    const normal = sun.kind === 'normal';
    return ok({
      city: found.name,
      date: day,
      timezone: found.timezone,
      sunrise: normal ? localClock(sun.sunrise, found.timezone) : null,
      sunset: normal ? localClock(sun.sunset, found.timezone) : null,
      dayLengthMinutes: normal ? sun.dayLengthMinutes : sun.kind === 'midnight sun' ? 1440 : 0,
      note: normal ? null : sun.kind,
    });
  },
});
