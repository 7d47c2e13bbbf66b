import { describe, expect, it } from 'vitest';
import { formatTemperature, locationOf, MAX_DAYS, nextDays, parseWeather } from './model.js';

const report = {
  place: {
    name: 'Oslo',
    country: 'Norway',
    countryCode: 'NO',
    latitude: 59.9,
    longitude: 10.7,
    timezone: 'Europe/Oslo',
  },
  current: {
    temperatureC: 21.5,
    feelsLikeC: 20,
    humidityPercent: 50,
    windSpeedKmh: 10,
    weatherCode: 1,
    conditions: 'Mainly clear',
  },
  forecast: [
    {
      date: '2026-07-28',
      minC: 12,
      maxC: 22,
      precipitationMm: 0,
      weatherCode: 1,
      conditions: 'Mainly clear',
    },
  ],
  source: 'offline-dataset',
};

describe('weather view model', () => {
  it('converts °C to °F in the view, rounded to one decimal', () => {
    expect(formatTemperature(21.5, 'C')).toBe('21.5 °C');
    expect(formatTemperature(21.5, 'F')).toBe('70.7 °F');
    expect(formatTemperature(-40, 'F')).toBe('-40 °F');
    expect(formatTemperature(0, 'F')).toBe('32 °F');
  });

  it('asks for two more days at a time, never past the server maximum', () => {
    expect(nextDays(3)).toBe(5);
    expect(nextDays(6)).toBe(MAX_DAYS);
    expect(nextDays(MAX_DAYS)).toBeUndefined();
    expect(nextDays(0)).toBe(3);
  });

  it.each([[-1], [2.5], [Number.NaN], [99]])('offers no more days for a forecast length of %s', (shown) => {
    expect(nextDays(shown)).toBeUndefined();
  });

  it('reads a get_weather report and refuses anything else', () => {
    expect(parseWeather(report)?.place.name).toBe('Oslo');
    expect(parseWeather(undefined)).toBeUndefined();
    expect(parseWeather({ items: [], count: 0 })).toBeUndefined();
    expect(parseWeather({ ...report, current: { ...report.current, temperatureC: '21' } })).toBeUndefined();
    expect(parseWeather({ ...report, source: 'somewhere' })).toBeUndefined();
  });

  it('asks again for the place the model named, else for name and country code', () => {
    const weather = parseWeather(report);
    if (!weather) throw new Error('the fixture must parse');
    expect(locationOf(weather, 'oslo, norway')).toBe('oslo, norway');
    expect(locationOf(weather, undefined)).toBe('Oslo, NO');
    expect(locationOf(weather, '  ')).toBe('Oslo, NO');
    expect(locationOf(weather, { city: 'Oslo' })).toBe('Oslo, NO');
  });
});
