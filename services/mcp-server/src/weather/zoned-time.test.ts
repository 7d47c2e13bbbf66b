import { describe, expect, it } from 'vitest';
import { cachedZoneCounts, canonicalTimeZone, MAX_CACHED_ZONES, wallClock } from './zoned-time.js';

describe('canonicalTimeZone', () => {
  it('returns the canonical spelling, ignoring case and surrounding spaces', () => {
    expect(canonicalTimeZone('Europe/Oslo')).toBe('Europe/Oslo');
    expect(canonicalTimeZone('europe/oslo')).toBe('Europe/Oslo');
    expect(canonicalTimeZone('  utc ')).toBe('UTC');
  });

  it('returns undefined for a name Intl does not know, again and again', () => {
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeUndefined();
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeUndefined();
  });
});

describe('wallClock', () => {
  it('reads date, time, weekday and offset in the zone', () => {
    expect(wallClock(new Date('2026-07-28T12:00:00Z'), 'Europe/Oslo')).toEqual({
      date: '2026-07-28',
      time: '14:00:00',
      hour: 14,
      minute: 0,
      weekday: 'Tuesday',
      offsetMinutes: 120,
    });
    expect(wallClock(new Date('2026-01-15T12:00:00Z'), 'Asia/Kolkata')).toMatchObject({
      time: '17:30:00',
      offsetMinutes: 330,
    });
    expect(wallClock(new Date('2026-01-15T03:00:00Z'), 'America/New_York')).toMatchObject({
      date: '2026-01-14',
      time: '22:00:00',
      weekday: 'Wednesday',
      offsetMinutes: -300,
    });
  });

  it('gives the same answer from a cached formatter as from a new one', () => {
    const at = new Date('2026-03-29T00:59:59Z');
    const first = wallClock(at, 'Europe/London');
    expect(wallClock(at, 'Europe/London')).toEqual(first);
    expect(wallClock(new Date('2026-03-29T01:00:00Z'), 'Europe/London')).toMatchObject({
      time: '02:00:00',
      offsetMinutes: 60,
    });
  });
});

describe('zone caches', () => {
  it('stay bounded however many distinct names the model sends', () => {
    for (let i = 0; i < MAX_CACHED_ZONES * 3; i++) canonicalTimeZone(`Nowhere/Zone_${i}`);
    // Every real zone, plus the hostile ones above, through the formatter cache too.
    for (const zone of Intl.supportedValuesOf('timeZone')) wallClock(new Date(0), zone);
    for (let hour = 0; hour <= 14; hour++) wallClock(new Date(0), `Etc/GMT-${hour}`);
    const counts = cachedZoneCounts();
    expect(counts.canonicalNames).toBe(MAX_CACHED_ZONES);
    expect(counts.formatters).toBeLessThanOrEqual(MAX_CACHED_ZONES);
    // Still correct after evictions.
    expect(canonicalTimeZone('Europe/Oslo')).toBe('Europe/Oslo');
    expect(wallClock(new Date('2026-07-28T12:00:00Z'), 'Asia/Tokyo').time).toBe('21:00:00');
  });
});
