/**
 * @module weather/zoned-time
 * The wall-clock date and time of an instant in an IANA zone, read from `Intl` (which ships the
 * zone database with Node, so it works offline). `get_time` and the offline weather both use it.
 * Test: `zoned-time.test.ts`.
 */
import { BoundedCache } from './bounded-cache.js';

export interface WallClock {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM:SS, 24-hour clock */
  time: string;
  hour: number;
  minute: number;
  /** English, e.g. "Tuesday" */
  weekday: string;
  /** Minutes ahead of UTC, e.g. 120 for +02:00. */
  offsetMinutes: number;
}

/**
 * Building an `Intl.DateTimeFormat` costs far more than using one (it was about a quarter of a
 * `get_time` call), so each zone's formatter and each name's lookup are kept. Node knows about
 * 420 canonical zones, and a formatter holds about 45 KiB of native memory; names come from model
 * input, so both caches stop here.
 */
export const MAX_CACHED_ZONES = 500;

const formatters = new BoundedCache<string, Intl.DateTimeFormat>(MAX_CACHED_ZONES);
const canonicalNames = new BoundedCache<string, string | undefined>(MAX_CACHED_ZONES);

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  return formatters.getOrCreate(
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        weekday: 'long',
      }),
  );
}

/**
 * The canonical IANA spelling of `name` (surrounding spaces ignored), e.g. "europe/oslo" →
 * "Europe/Oslo", or undefined when `Intl` does not know it. Unknown names are cached too, so a
 * model that repeats a wrong name does not pay for the lookup again.
 */
export function canonicalTimeZone(name: string): string | undefined {
  return canonicalNames.getOrCreate(name.trim(), (trimmed) => {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
    } catch {
      return undefined;
    }
  });
}

/** How many zones each cache holds now; for tests. */
export function cachedZoneCounts(): { formatters: number; canonicalNames: number } {
  return { formatters: formatters.size, canonicalNames: canonicalNames.size };
}

export function wallClock(at: Date, timeZone: string): WallClock {
  const fields: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterFor(timeZone).formatToParts(at)) fields[part.type] = part.value;
  const date = `${fields.year}-${fields.month}-${fields.day}`;
  const time = `${fields.hour}:${fields.minute}:${fields.second}`;
  // The wall-clock time read as if it were UTC, minus the real instant, is the zone's offset.
  const wallAsUtc = Date.parse(`${date}T${time}Z`);
  const offsetMinutes = Math.round((wallAsUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  return {
    date,
    time,
    hour: Number(fields.hour),
    minute: Number(fields.minute),
    weekday: String(fields.weekday),
    offsetMinutes,
  };
}
