/**
 * @module day-answer
 * The answer to a question about one day: finds the dated entries of a result (a forecast's
 * `date` fields, by shape, not by tool), picks the day asked for and words it, e.g. "Friday
 * (2026-11-27): 6.1 to 9.0 °C, precipitation 4.2 mm, Light rain", with a yes or no for an
 * umbrella question. Used by `planner.ts`; test: `day-answer.test.ts`.
 */

import { isRecord } from '@mcp-workshop/shared';
import { parseOutcome } from './answer.js';
import { dateOf, dayLabel, findDays, isIsoDate, isoDate, isTimeZone } from './days.js';

/** Dated lists sit near the top of a result (`forecast`, `daily.days`); deeper is not looked at. */
const MAX_DEPTH = 3;
/** Object entries looked at per result, so a huge or hostile result costs little. */
const MAX_VISITED = 300;
/** Less than this is a trace that nobody opens an umbrella for. */
const MEASURABLE_MM = 0.2;

/** Questions whose answer should say whether it will rain. */
const ASKS_ABOUT_RAIN = /\b(?:umbrellas?|rain\w*|wet|showers?|drizzl\w*|precipitation)\b/i;
const WET_CONDITIONS = /\b(?:rain|drizzle|showers?|thunder\w*)\b/i;
const SNOW_CONDITIONS = /\b(?:snow\w*|sleet)\b/i;
const NOT_TEMPERATURE = /precip|rain|snow|wind|humid|pressure|uv|visib|cloud|code/i;

interface DatedEntry {
  date: string;
  entry: Record<string, unknown>;
}

/** The first list in the result whose entries carry an ISO date, e.g. `forecast[].date`. */
function datedEntries(value: unknown): DatedEntry[] {
  const queue: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  let visited = 0;
  for (let next = queue.shift(); next && visited < MAX_VISITED; next = queue.shift()) {
    if (!isRecord(next.node)) continue;
    for (const child of Object.values(next.node)) {
      visited += 1;
      if (Array.isArray(child)) {
        const dated = child.flatMap((entry) => {
          if (!isRecord(entry)) return [];
          const date = Object.values(entry).find((v): v is string => typeof v === 'string' && isIsoDate(v));
          return date ? [{ date: date.slice(0, 10), entry }] : [];
        });
        if (dated.length > 0) return dated;
      } else if (isRecord(child) && next.depth + 1 < MAX_DEPTH) {
        queue.push({ node: child, depth: next.depth + 1 });
      }
    }
  }
  return [];
}

/** The place's IANA zone, if the result names one (`place.timezone`): its dates are local to it. */
function zoneIn(value: unknown, depth = 0): string | undefined {
  if (!isRecord(value) || depth >= MAX_DEPTH) return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (typeof child === 'string' && /time_?zone|^tz$/i.test(key) && isTimeZone(child)) return child;
  }
  for (const child of Object.values(value)) {
    const zone = zoneIn(child, depth + 1);
    if (zone) return zone;
  }
  return undefined;
}

function numberAt(entry: Record<string, unknown>, test: (key: string) => boolean) {
  const key = Object.keys(entry).find((k) => typeof entry[k] === 'number' && test(k));
  return key === undefined ? undefined : { key, value: entry[key] as number };
}

const temperatureUnit = (key: string) =>
  /(?:C|_c|celsius)$/i.test(key) && !/F$/.test(key) ? ' °C' : /(?:F|_f|fahrenheit)$/i.test(key) ? ' °F' : '';

/** "6.1 to 9.0 °C, precipitation 4.2 mm, Light rain", from whatever keys the entry uses. */
function describeEntry(entry: Record<string, unknown>): string {
  const low = numberAt(entry, (k) => /min|low/i.test(k) && !NOT_TEMPERATURE.test(k));
  const high = numberAt(entry, (k) => /max|high/i.test(k) && !NOT_TEMPERATURE.test(k));
  const wet = numberAt(entry, (k) => /precip|rain|snow/i.test(k));
  const conditions = Object.entries(entry).find(
    ([k, v]) => typeof v === 'string' && /^(?:conditions?|summary|description|weather|text)$/i.test(k),
  )?.[1];
  const parts: string[] = [];
  if (low && high)
    parts.push(`${low.value.toFixed(1)} to ${high.value.toFixed(1)}${temperatureUnit(high.key)}`);
  else if (low ?? high) {
    const only = (low ?? high) as { key: string; value: number };
    parts.push(`${low ? 'low' : 'high'} ${only.value.toFixed(1)}${temperatureUnit(only.key)}`);
  }
  if (wet) parts.push(`precipitation ${wet.value.toFixed(1)}${/mm/i.test(wet.key) ? ' mm' : ''}`);
  if (typeof conditions === 'string') parts.push(conditions);
  if (parts.length > 0) return parts.join(', ');
  // An entry of unknown shape: quote its plain values.
  return Object.entries(entry)
    .filter(([, v]) => typeof v === 'number' || (typeof v === 'string' && !isIsoDate(v)))
    .slice(0, 4)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');
}

/** Yes or no for an umbrella, from the amount and the words of the day's conditions. */
function rainVerdict(entry: Record<string, unknown>): string | undefined {
  const wet = numberAt(entry, (k) => /precip|rain/i.test(k))?.value;
  const words = Object.values(entry)
    .filter((v): v is string => typeof v === 'string')
    .join(' ');
  const amount = wet === undefined ? '' : ` (${wet.toFixed(1)} mm)`;
  if (SNOW_CONDITIONS.test(words) && !WET_CONDITIONS.test(words)) {
    return `Snow rather than rain is expected${amount}, so dress for snow.`;
  }
  if ((wet !== undefined && wet >= MEASURABLE_MM) || WET_CONDITIONS.test(words)) {
    return `Rain is expected${amount}, so take an umbrella.`;
  }
  if (wet === undefined && !/\w/.test(words)) return undefined;
  return 'No rain is expected, so you should not need an umbrella.';
}

/**
 * What a tool result says about the days `question` names, or undefined when it names none or
 * the result has no dated entries. "Today" is the clock's date in the result's own time zone
 * when it names one (a forecast's first entry is today where the place is). `maxDays`, the
 * tool's own limit, explains a day past the end of a forecast that was as long as it gets.
 */
export function describeDays(
  content: string,
  question: string,
  now: Date,
  maxDays?: number,
): string | undefined {
  const days = findDays(question);
  if (days.length === 0) return undefined;
  const parsed = parseOutcome(content);
  if (parsed.kind !== 'data') return undefined;
  const entries = datedEntries(parsed.value);
  const first = entries[0]?.date;
  const last = entries.at(-1)?.date;
  if (!first || !last) return undefined;
  const today = isoDate(now, zoneIn(parsed.value));
  const aboutRain = ASKS_ABOUT_RAIN.test(question);
  return days
    .map((day) => {
      const date = dateOf(day, today);
      const found = entries.find((entry) => entry.date === date);
      if (!found) {
        if (date < first)
          return `${dayLabel(date)} is before the forecast I got, which starts on ${dayLabel(first)}.`;
        const limit =
          maxDays !== undefined && entries.length >= maxDays
            ? ` ${maxDays} days is the most this tool forecasts.`
            : '';
        return `${dayLabel(date)} is beyond the forecast I got, which ends on ${dayLabel(last)}.${limit}`;
      }
      const verdict = aboutRain ? rainVerdict(found.entry) : undefined;
      return `${dayLabel(date)}: ${describeEntry(found.entry)}.${verdict ? ` ${verdict}` : ''}`;
    })
    .join(' ');
}
