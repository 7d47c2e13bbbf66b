/**
 * Tests for `days.ts`: the days a question names, date arithmetic on ISO strings, the "how many
 * days" parameter read from any schema, and how many days a call asks for, by a fixed clock.
 */
import { describe, expect, it } from 'vitest';
import { coverDays, dateOf, dayCountParameter, daysAhead, findDays, isoDate, weekdayOf } from './days.js';
import type { PlannerTool } from './types.js';

/** Monday 2026-11-23, midday in London; late evening in Tokyo is already Tuesday 2026-11-24. */
const MONDAY_NOON = new Date('2026-11-23T12:00:00Z');
const MONDAY_EVENING = new Date('2026-11-23T20:00:00Z');

const forecastTool = (days: Record<string, unknown>, place = 'location'): PlannerTool => ({
  name: 'forecast',
  description: 'A daily forecast for a city.',
  parameters: {
    type: 'object',
    properties: { [place]: { type: 'string', description: 'City name' }, ...days },
    required: [place],
  },
});

describe('findDays', () => {
  it('finds weekdays, "this"/"next" weekdays and relative days, in order, once each', () => {
    expect(findDays('on Friday, this saturday, next Monday, Friday again')).toEqual([
      { kind: 'weekday', weekday: 5, next: false },
      { kind: 'weekday', weekday: 6, next: false },
      { kind: 'weekday', weekday: 1, next: true },
    ]);
    expect(findDays('today, tomorrow or the day after tomorrow')).toEqual([
      { kind: 'relative', offset: 0 },
      { kind: 'relative', offset: 1 },
      { kind: 'relative', offset: 2 },
    ]);
    expect(findDays('weather in Oslo for 3 days')).toEqual([]);
  });
});

describe('dates', () => {
  it('reads weekdays from ISO dates and counts days ahead', () => {
    expect(weekdayOf('2026-11-23')).toBe(1);
    expect(dateOf({ kind: 'weekday', weekday: 5, next: false }, '2026-11-23')).toBe('2026-11-27');
    expect(dateOf({ kind: 'relative', offset: 2 }, '2026-11-30')).toBe('2026-12-02');
    expect(daysAhead({ kind: 'weekday', weekday: 1, next: false }, '2026-11-23')).toBe(0);
    expect(daysAhead({ kind: 'weekday', weekday: 1, next: true }, '2026-11-23')).toBe(7);
  });

  it("gives the clock's date in a time zone", () => {
    expect(isoDate(MONDAY_EVENING, 'Europe/London')).toBe('2026-11-23');
    expect(isoDate(MONDAY_EVENING, 'Asia/Tokyo')).toBe('2026-11-24');
  });
});

describe('dayCountParameter', () => {
  it('finds a days parameter and its bounds in the schema, or in words a converter left', () => {
    expect(dayCountParameter(forecastTool({ days: { type: 'integer', minimum: 1, maximum: 16 } }))).toEqual({
      name: 'days',
      minimum: 1,
      maximum: 16,
    });
    const strict = {
      type: ['integer', 'null'],
      description: 'Days, starting today. (minimum: 1, maximum: 7)',
    };
    expect(dayCountParameter(forecastTool({ forecast_days: strict }))).toEqual({
      name: 'forecast_days',
      minimum: 1,
      maximum: 7,
    });
    const counted = { type: 'integer', description: 'How many days to forecast, 1–10.' };
    expect(dayCountParameter(forecastTool({ count: counted }))).toEqual({
      name: 'count',
      minimum: 1,
      maximum: 10,
    });
  });

  it('ignores numbers that are not a count of days', () => {
    expect(dayCountParameter(forecastTool({ hours: { type: 'integer' } }))).toBeUndefined();
    expect(
      dayCountParameter(forecastTool({ count: { type: 'integer', description: 'Max results.' } })),
    ).toBeUndefined();
  });
});

describe('coverDays', () => {
  const tool = forecastTool({ days: { type: 'integer', minimum: 1, maximum: 7 } });

  it('asks for days up to the day named, counted from today where the place is', () => {
    expect(coverDays(tool, { location: 'London' }, 'rain in London on Friday?', MONDAY_NOON)).toEqual({
      location: 'London',
      days: 5,
    });
    // In Tokyo it is already Tuesday, so Friday is the fourth day of its forecast.
    expect(coverDays(tool, { location: 'Tokyo' }, 'Tokyo on Friday', MONDAY_EVENING).days).toBe(4);
  });

  it('adds a spare day when the place has no known time zone', () => {
    expect(coverDays(tool, { location: 'Bergen' }, 'Bergen on Friday', MONDAY_NOON).days).toBe(6);
  });

  it('leaves today to the tool, keeps a larger count the user gave, and stops at the maximum', () => {
    expect(coverDays(tool, { location: 'Oslo' }, 'Oslo today', MONDAY_NOON)).toEqual({ location: 'Oslo' });
    expect(coverDays(tool, { location: 'Oslo', days: 7 }, 'Oslo tomorrow', MONDAY_NOON).days).toBe(7);
    expect(coverDays(tool, { location: 'Oslo' }, 'Oslo next Monday', MONDAY_NOON).days).toBe(7);
  });

  it('fills a strict null and keeps the parameter order of the schema', () => {
    const filled = coverDays(tool, { location: 'Oslo', days: null }, 'Oslo on Wednesday', MONDAY_NOON);
    expect(JSON.stringify(filled)).toBe('{"location":"Oslo","days":3}');
  });

  it('leaves a tool without a days parameter alone', () => {
    const time: PlannerTool = {
      name: 'get_time',
      parameters: { type: 'object', properties: { timezone: { type: 'string' } } },
    };
    expect(coverDays(time, { timezone: 'Asia/Tokyo' }, 'time in Tokyo on Friday', MONDAY_NOON)).toEqual({
      timezone: 'Asia/Tokyo',
    });
  });
});
