import { describe, expect, it } from 'vitest';
import { CITIES } from './cities.js';
import { normalizeName } from './lookup.js';

describe('cities', () => {
  it('has at least 40 cities including Oslo, Bergen and Trondheim', () => {
    expect(CITIES.length).toBeGreaterThanOrEqual(40);
    const norway = CITIES.filter((city) => city.countryCode === 'NO').map((city) => city.name);
    expect(norway).toEqual(['Oslo', 'Bergen', 'Trondheim']);
  });

  it('covers every inhabited continent, both hemispheres included', () => {
    const zones = new Set(CITIES.map((city) => city.timezone.split('/')[0]));
    for (const region of ['Europe', 'Asia', 'Africa', 'America', 'Australia', 'Pacific']) {
      expect(zones.has(region)).toBe(true);
    }
    expect(CITIES.some((city) => city.latitude < -30)).toBe(true);
  });

  it('uses only time zones Intl accepts', () => {
    for (const { name, timezone } of CITIES) {
      expect(
        () => new Intl.DateTimeFormat('en-US', { timeZone: timezone }),
        `${name}: ${timezone}`,
      ).not.toThrow();
    }
  });

  it('has unique names and aliases once accents and case are ignored', () => {
    const keys = CITIES.flatMap((city) => [city.name, ...city.aliases].map(normalizeName));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has coordinates, country codes and climate numbers in range', () => {
    for (const { name, latitude, longitude, countryCode, climate } of CITIES) {
      const where = `${name}`;
      expect(Math.abs(latitude), where).toBeLessThanOrEqual(90);
      expect(Math.abs(longitude), where).toBeLessThanOrEqual(180);
      expect(countryCode, where).toMatch(/^[A-Z]{2}$/);
      expect(climate.wettestMonth, where).toBeGreaterThanOrEqual(1);
      expect(climate.wettestMonth, where).toBeLessThanOrEqual(12);
      expect(climate.precipSeasonality, where).toBeGreaterThanOrEqual(0);
      expect(climate.precipSeasonality, where).toBeLessThanOrEqual(1);
      expect(climate.annualPrecipMm, where).toBeGreaterThan(0);
      // The southern hemisphere has its warm month in January.
      if (latitude < -10) expect(climate.janMeanC, where).toBeGreaterThan(climate.julMeanC);
    }
  });
});
