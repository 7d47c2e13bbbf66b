import { describe, expect, it } from 'vitest';
import { describeWeatherCode, WMO, WMO_CONDITIONS } from './wmo.js';

describe('wmo', () => {
  it('describes the codes Open-Meteo documents in plain English', () => {
    expect(describeWeatherCode(0)).toBe('Clear sky');
    expect(describeWeatherCode(2)).toBe('Partly cloudy');
    expect(describeWeatherCode(61)).toBe('Light rain');
    expect(describeWeatherCode(73)).toBe('Snow');
    expect(describeWeatherCode(95)).toBe('Thunderstorm');
  });

  it('has text for every code the offline dataset can produce', () => {
    for (const code of Object.values(WMO)) expect(WMO_CONDITIONS.has(code)).toBe(true);
  });

  it('labels an unknown code instead of failing', () => {
    expect(describeWeatherCode(42)).toBe('Unknown conditions (WMO code 42)');
  });
});
