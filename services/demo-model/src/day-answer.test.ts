/**
 * Tests for `day-answer.ts`: the day asked for, found by date in results of different shapes,
 * worded with its numbers, and a yes or no for umbrella questions, by a fixed clock.
 */
import { describe, expect, it } from 'vitest';
import { describeDays } from './day-answer.js';

const MONDAY = new Date('2026-11-23T12:00:00Z');

const week = JSON.stringify({
  place: { name: 'London', timezone: 'Europe/London' },
  forecast: [
    { date: '2026-11-23', minC: 2.9, maxC: 11.9, precipitationMm: 0, conditions: 'Partly cloudy' },
    { date: '2026-11-24', minC: 5.4, maxC: 10.4, precipitationMm: 9.5, conditions: 'Rain' },
    { date: '2026-11-25', minC: -3, maxC: 0.5, precipitationMm: 3, conditions: 'Snow' },
  ],
});

describe('describeDays', () => {
  it('describes the day asked for, and only that day', () => {
    expect(describeDays(week, 'weather in London tomorrow', MONDAY)).toBe(
      'Tuesday (2026-11-24): 5.4 to 10.4 °C, precipitation 9.5 mm, Rain.',
    );
  });

  it('says whether to take an umbrella when the question is about rain', () => {
    expect(describeDays(week, 'umbrella in London today?', MONDAY)).toContain(
      'No rain is expected, so you should not need an umbrella.',
    );
    expect(describeDays(week, 'will it rain on Tuesday?', MONDAY)).toContain(
      'Rain is expected (9.5 mm), so take an umbrella.',
    );
    expect(describeDays(week, 'will it rain on Wednesday?', MONDAY)).toContain('Snow rather than rain');
  });

  it("counts today from the place's own date when the result names its time zone", () => {
    const tokyo = JSON.stringify({
      timezone: 'Asia/Tokyo',
      daily: [
        { day: '2026-11-24', high_f: 60, low_f: 50 },
        { day: '2026-11-25', high_f: 58, low_f: 49 },
      ],
    });
    expect(describeDays(tokyo, 'Tokyo tomorrow', new Date('2026-11-23T20:00:00Z'))).toBe(
      'Wednesday (2026-11-25): 49.0 to 58.0 °F.',
    );
  });

  it('says when the day is beyond the forecast, and the limit when the tool could give no more', () => {
    const text = describeDays(week, 'London on Friday', MONDAY, 3);
    expect(text).toBe(
      'Friday (2026-11-27) is beyond the forecast I got, which ends on Wednesday (2026-11-25). ' +
        '3 days is the most this tool forecasts.',
    );
  });

  it('says nothing when no day is named or the result has no dated entries', () => {
    expect(describeDays(week, 'weather in London', MONDAY)).toBeUndefined();
    expect(describeDays('{"temperatureC": 4}', 'weather on Friday', MONDAY)).toBeUndefined();
    expect(describeDays('{"error": "Unknown place"}', 'weather on Friday', MONDAY)).toBeUndefined();
  });
});
