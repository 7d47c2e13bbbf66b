import { ToolError } from '@mcp-workshop/shared';
import { describe, expect, it } from 'vitest';
import { CITIES } from './cities.js';
import { apparentTemperature, createOfflineWeather, dayWeather, localDateAndHour } from './offline.js';

const at = (iso: string) => createOfflineWeather(() => new Date(iso));

describe('offline weather', () => {
  it('reports the dataset place, current conditions and one entry per day', async () => {
    const report = await at('2026-07-28T12:00:00Z').getWeather('Oslo', 3);
    expect(report.source).toBe('offline-dataset');
    expect(report.place).toEqual({
      name: 'Oslo',
      country: 'Norway',
      countryCode: 'NO',
      latitude: 59.91,
      longitude: 10.75,
      timezone: 'Europe/Oslo',
    });
    expect(report.forecast.map((day) => day.date)).toEqual(['2026-07-28', '2026-07-29', '2026-07-30']);
    for (const day of report.forecast) {
      expect(day.minC).toBeLessThan(day.maxC);
      expect(day.precipitationMm).toBeGreaterThanOrEqual(0);
      expect(day.conditions).not.toMatch(/Unknown/);
    }
    expect(report.current.humidityPercent).toBeGreaterThanOrEqual(0);
    expect(report.current.humidityPercent).toBeLessThanOrEqual(100);
  });

  it('gives the same numbers for the same city and date', async () => {
    const first = await at('2026-07-28T12:00:00Z').getWeather('Oslo', 7);
    const again = await at('2026-07-28T12:00:00Z').getWeather('oslo, no', 7);
    expect(again).toEqual(first);
    // A day's numbers depend on the date, not on when it was asked: tomorrow's forecast is tomorrow's weather.
    const tomorrow = await at('2026-07-29T12:00:00Z').getWeather('Oslo', 6);
    expect(tomorrow.forecast).toEqual(first.forecast.slice(1));
  });

  it('keeps the forecast, humidity, wind and conditions for a local date, while the temperature follows the hour', async () => {
    // What WORKSHOP.md promises is stable, and what it says is not (both in Oslo's summer, UTC+2).
    const morning = await at('2026-07-28T06:00:00Z').getWeather('Oslo', 3);
    const afternoon = await at('2026-07-28T13:00:00Z').getWeather('Oslo', 3);
    expect(afternoon.forecast).toEqual(morning.forecast);
    expect(afternoon.current.humidityPercent).toBe(morning.current.humidityPercent);
    expect(afternoon.current.windSpeedKmh).toBe(morning.current.windSpeedKmh);
    expect(afternoon.current.conditions).toBe(morning.current.conditions);
    expect(afternoon.current.temperatureC).not.toBe(morning.current.temperatureC);
  });

  it('gives different numbers for different cities or dates', () => {
    const oslo = CITIES[0];
    const bergen = CITIES[1];
    if (!oslo || !bergen) throw new Error('dataset order changed');
    expect(dayWeather(oslo, '2026-07-28')).not.toEqual(dayWeather(oslo, '2026-07-29'));
    expect(dayWeather(oslo, '2026-07-28').maxC).not.toBe(dayWeather(bergen, '2026-07-28').maxC);
  });

  it('follows the seasons, reversed in the southern hemisphere', () => {
    const mean = (name: string, month: string) => {
      const city = CITIES.find((entry) => entry.name === name);
      if (!city) throw new Error(name);
      const days = Array.from({ length: 28 }, (_, i) =>
        dayWeather(city, `2026-${month}-${String(i + 1).padStart(2, '0')}`),
      );
      return days.reduce((sum, day) => sum + (day.minC + day.maxC) / 2, 0) / days.length;
    };
    expect(mean('Oslo', '07')).toBeGreaterThan(mean('Oslo', '01') + 10);
    expect(mean('Sydney', '01')).toBeGreaterThan(mean('Sydney', '07') + 5);
    expect(Math.abs(mean('Oslo', '01') - -3.5)).toBeLessThan(3);
  });

  it('keeps deserts dry and snows in a cold winter', () => {
    const city = (name: string) => CITIES.find((entry) => entry.name === name) ?? CITIES[0];
    const cairo = city('Cairo');
    const year = Array.from({ length: 365 }, (_, i) =>
      new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
    );
    const cairoRain = year.reduce(
      (sum, date) => sum + (cairo ? dayWeather(cairo, date).precipitationMm : 0),
      0,
    );
    expect(cairoRain).toBeLessThan(150);
    const moscow = city('Moscow');
    const codes = year.slice(0, 60).map((date) => (moscow ? dayWeather(moscow, date).weatherCode : 0));
    expect(codes.some((code) => code >= 71 && code <= 75)).toBe(true);
  });

  it('dates the forecast in the city’s own time zone', async () => {
    const lateUtc = at('2026-07-28T23:30:00Z');
    expect((await lateUtc.getWeather('Tokyo', 1)).forecast[0]?.date).toBe('2026-07-29');
    expect((await lateUtc.getWeather('New York', 1)).forecast[0]?.date).toBe('2026-07-28');
    expect(localDateAndHour(new Date('2026-07-28T23:30:00Z'), 'Asia/Kolkata')).toEqual({
      date: '2026-07-29',
      hour: 5,
    });
  });

  it('clamps days to 1–7 when called directly', async () => {
    const provider = at('2026-07-28T12:00:00Z');
    expect((await provider.getWeather('Oslo', 0)).forecast).toHaveLength(1);
    expect((await provider.getWeather('Oslo', 99)).forecast).toHaveLength(7);
  });

  it('throws a ToolError with a suggestion for an unknown place', async () => {
    const attempt = at('2026-07-28T12:00:00Z').getWeather('Osloo', 3);
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow('Did you mean "Oslo"?');
  });

  it('computes a plausible feels-like temperature', () => {
    expect(apparentTemperature(-5, 80, 30)).toBeLessThan(-5);
    expect(apparentTemperature(32, 80, 5)).toBeGreaterThan(32);
  });
});
