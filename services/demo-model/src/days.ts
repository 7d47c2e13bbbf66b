/**
 * @module days
 * Days a question names ("on Friday", "next Monday", "tomorrow") and what they mean for a call:
 * enough forecast days to reach them, read from the tool's own schema (an integer parameter named
 * like `days`, with its minimum and maximum). Dates are ISO strings, so no time zone sneaks in.
 * Used by `planner.ts` and `day-answer.ts`; test: `days.test.ts`.
 */

import { isRecord } from '@mcp-workshop/shared';
import { kindOf } from './extract.js';
import { zoneForPlace } from './places.js';
import { schemaProperties, words } from './score.js';
import type { PlannerTool } from './types.js';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A day the question names: a weekday ("next" never means today), or a number of days from today. */
export type DayReference =
  | { kind: 'weekday'; weekday: number; next: boolean }
  | { kind: 'relative'; offset: number };

const DAY_PHRASE =
  /\b(?:the\s+day\s+after\s+tomorrow|tomorrow|today|tonight|(?:(this|next|coming)\s+)?(sun|mon|tues|wednes|thurs|fri|satur)day)\b/giu;
const RELATIVE: Record<string, number> = { today: 0, tonight: 0, tomorrow: 1 };

/** The days `text` names, in order, each once. */
export function findDays(text: string): DayReference[] {
  const found: DayReference[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(DAY_PHRASE)) {
    const phrase = match[0].toLowerCase();
    const stem = match[2]?.toLowerCase();
    const day: DayReference = stem
      ? {
          kind: 'weekday',
          weekday: WEEKDAYS.findIndex((name) => name.toLowerCase() === `${stem}day`),
          next: match[1]?.toLowerCase() === 'next',
        }
      : { kind: 'relative', offset: phrase.startsWith('the day after') ? 2 : (RELATIVE[phrase] ?? 0) };
    const key = JSON.stringify(day);
    if (!seen.has(key)) {
      seen.add(key);
      found.push(day);
    }
  }
  return found;
}

/** The clock's date as YYYY-MM-DD, in `timeZone` (a valid IANA name) or else the machine's own zone. */
export function isoDate(now: Date, timeZone?: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    ...(timeZone ? { timeZone } : {}),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;
const utcDay = (iso: string) => {
  const [, y, m, d] = ISO_DATE.exec(iso) ?? [];
  return Date.UTC(Number(y), Number(m) - 1, Number(d));
};
const DAY_MS = 86_400_000;

/** True for text that starts like an ISO date, e.g. "2026-11-27" or "2026-11-27T00:00". */
export const isIsoDate = (text: string) => ISO_DATE.test(text);
/** 0 for Sunday … 6 for Saturday, from the date alone. */
export const weekdayOf = (iso: string) => new Date(utcDay(iso)).getUTCDay();
export const addDays = (iso: string, days: number) =>
  new Date(utcDay(iso) + days * DAY_MS).toISOString().slice(0, 10);

/** How many days after `today` the day falls: 0 is today; "next Friday" on a Friday is 7. */
export function daysAhead(day: DayReference, today: string): number {
  if (day.kind === 'relative') return day.offset;
  const ahead = (day.weekday - weekdayOf(today) + 7) % 7;
  return ahead === 0 && day.next ? 7 : ahead;
}

/** The day's date, e.g. Friday from Monday 2026-11-23 → 2026-11-27. */
export const dateOf = (day: DayReference, today: string) => addDays(today, daysAhead(day, today));

/** "Friday (2026-11-27)". */
export const dayLabel = (iso: string) => `${WEEKDAYS[weekdayOf(iso)]} (${iso.slice(0, 10)})`;

export interface DayCountParameter {
  name: string;
  minimum?: number;
  maximum?: number;
}

const integerIn = (text: string, pattern: RegExp) => {
  const value = pattern.exec(text)?.[1];
  return value === undefined ? undefined : Number(value);
};

/**
 * The tool's "how many days" parameter: an integer (or number) named like `days`, `forecast_days`,
 * or a count whose description speaks of days. Its bounds come from `minimum`/`maximum`, else from
 * words a schema converter left in the description ("maximum: 7"), else a range ("1–7").
 */
export function dayCountParameter(tool: PlannerTool): DayCountParameter | undefined {
  for (const [name, schema] of Object.entries(schemaProperties(tool.parameters))) {
    if (kindOf(name, schema) !== 'number') continue;
    const nameWords = words(name);
    const description = typeof schema.description === 'string' ? schema.description : '';
    const countOfDays =
      nameWords.some((word) => /^days?$/.test(word)) ||
      (nameWords.some((word) => /^(?:count|num|number|n|length|horizon|limit)$/.test(word)) &&
        /\bdays?\b/i.test(description));
    if (!countOfDays) continue;
    const range = /(\d+)\s*(?:–|—|-|to)\s*(\d+)/.exec(description);
    const minimum =
      (typeof schema.minimum === 'number' ? schema.minimum : undefined) ??
      integerIn(description, /\bminimum:\s*(\d+)/i) ??
      (range ? Number(range[1]) : undefined);
    const maximum =
      (typeof schema.maximum === 'number' ? schema.maximum : undefined) ??
      integerIn(description, /\bmaximum:\s*(\d+)/i) ??
      (range ? Number(range[2]) : undefined) ??
      integerIn(description, /\b(?:up to|at most)\s+(\d+)/i);
    return {
      name,
      ...(minimum === undefined ? {} : { minimum }),
      ...(maximum === undefined ? {} : { maximum }),
    };
  }
  return undefined;
}

/** True for a time zone name `Intl` accepts, e.g. "Europe/London". */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The IANA zone of the call's place or time zone argument, when `Intl` knows it. */
function zoneOfCall(tool: PlannerTool, args: Record<string, unknown>): string | undefined {
  const properties = schemaProperties(tool.parameters);
  for (const [name, value] of Object.entries(args)) {
    const schema = properties[name];
    if (typeof value !== 'string' || !isRecord(schema)) continue;
    const kind = kindOf(name, schema);
    const zone = kind === 'place' ? zoneForPlace(value) : kind === 'timezone' ? value : undefined;
    if (zone && isTimeZone(zone)) return zone;
  }
  return undefined;
}

/**
 * `args` with enough days to reach the furthest day `text` names. A forecast starts today in the
 * place's time zone: with that zone known, Friday from Monday takes 5 days; without it, one
 * spare day covers a place whose date is still a day behind this clock's. Today is in every
 * forecast, so a question about today leaves the count to the tool; a larger count the user
 * gave is kept; past the tool's maximum, the maximum is asked for (the answer says what is missing).
 */
export function coverDays(
  tool: PlannerTool,
  args: Record<string, unknown>,
  text: string,
  now: Date,
): Record<string, unknown> {
  const days = findDays(text);
  const parameter = days.length > 0 ? dayCountParameter(tool) : undefined;
  if (!parameter) return args;
  const zone = zoneOfCall(tool, args);
  const today = isoDate(now, zone);
  const furthest = Math.max(...days.map((day) => daysAhead(day, today)));
  if (furthest === 0) return args;
  let wanted = furthest + 1 + (zone ? 0 : 1);
  if (parameter.maximum !== undefined) wanted = Math.min(wanted, parameter.maximum);
  if (parameter.minimum !== undefined) wanted = Math.max(wanted, parameter.minimum);
  const given = args[parameter.name];
  if (typeof given === 'number' && given >= wanted) return args;
  // Keep the schema's parameter order, for readable JSON.
  const order = Object.keys(schemaProperties(tool.parameters));
  const filled: Record<string, unknown> = { ...args, [parameter.name]: wanted };
  return Object.fromEntries(order.filter((key) => key in filled).map((key) => [key, filled[key]]));
}
