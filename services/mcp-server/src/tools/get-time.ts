/**
 * @module tools/get-time
 * `get_time`: the current time in an IANA time zone. Built on `Intl`, which ships the zone
 * database with Node, so it works offline. Test: `get-time.test.ts`.
 */
import { fail, ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool } from '../deps.js';
import { canonicalTimeZone, wallClock } from '../weather/zoned-time.js';

/** IANA names are short ("America/Argentina/ComodRivadavia" is among the longest); this caps hostile input. */
const MAX_ZONE_LENGTH = 64;

const input = z.object({
  timezone: z
    .string()
    .min(1)
    .max(MAX_ZONE_LENGTH)
    .describe(
      'IANA time zone name, e.g. "Europe/Oslo", "America/New_York" or "UTC". Not a city name or offset.',
    ),
});

const output = z.object({
  timezone: z.string().describe('The canonical IANA zone name that was used.'),
  iso: z
    .string()
    .describe('Local date and time with its UTC offset, ISO 8601, e.g. "2026-07-28T14:00:00+02:00".'),
  date: z.string().describe('Local date, YYYY-MM-DD.'),
  time: z.string().describe('Local time, HH:MM:SS, 24-hour clock.'),
  weekday: z.string().describe('Local day of the week in English, e.g. "Tuesday".'),
  utcOffset: z.string().describe('Offset from UTC, e.g. "+02:00".'),
  unixSeconds: z.number().int().describe('Seconds since 1970-01-01T00:00:00Z.'),
});

export const getTime = defineTool({
  name: 'get_time',
  title: 'Current time',
  description:
    'Get the current local date, time and day of the week in an IANA time zone. Use it for "what time is it ' +
    'in ..." and "what day is it in ..." questions. ' +
    'Pass a zone such as "Asia/Tokyo", not a city name.',
  input,
  output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ timezone }, { deps }) {
    const zone = canonicalTimeZone(timezone);
    if (!zone) {
      return fail(
        `"${timezone}" is not an IANA time zone. Use a name like "Europe/Oslo", "America/New_York" or "UTC".`,
      );
    }
    const now = deps.now();
    const parts = wallClock(now, zone);
    const offset = formatOffset(parts.offsetMinutes);
    return ok({
      timezone: zone,
      iso: `${parts.date}T${parts.time}${offset}`,
      date: parts.date,
      time: parts.time,
      weekday: parts.weekday,
      utcOffset: offset,
      unixSeconds: Math.floor(now.getTime() / 1000),
    });
  },
});

function formatOffset(totalMinutes: number): string {
  const sign = totalMinutes < 0 ? '-' : '+';
  const abs = Math.abs(totalMinutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const minutes = String(abs % 60).padStart(2, '0');
  return `${sign}${hours}:${minutes}`;
}
