import { describe, expect, it } from 'vitest';
import {
  editDistance,
  findCity,
  findCountry,
  hasControlCharacters,
  listCountries,
  normalizeName,
  quoteForMessage,
  suggestCities,
  unknownPlaceMessage,
} from './lookup.js';

describe('lookup', () => {
  it('normalizes case, accents and punctuation', () => {
    expect(normalizeName('  São-Paulo ')).toBe('sao paulo');
    expect(normalizeName('BOGOTÁ')).toBe('bogota');
    expect(normalizeName('İstanbul')).toBe('istanbul');
  });

  it.each([
    ['Oslo', 'Oslo'],
    ['OSLO', 'Oslo'],
    ['oslo', 'Oslo'],
    ['Oslo, Norway', 'Oslo'],
    ['Oslo, NO', 'Oslo'],
    ['oslo,no', 'Oslo'],
    ['Oslo Norway', 'Oslo'],
    ['sao paulo', 'São Paulo'],
    ['Sao Paulo, Brazil', 'São Paulo'],
    ['bogota', 'Bogotá'],
    ['Reykjavik', 'Reykjavík'],
    ['NYC', 'New York'],
    ['New York, USA', 'New York'],
    ['new york united states', 'New York'],
    ['Bombay', 'Mumbai'],
    ['London, UK', 'London'],
  ])('finds %s as %s', (query, name) => {
    expect(findCity(query)?.name).toBe(name);
  });

  it.each(['Osloo', 'Paris, Texas', 'Oslo, Sweden', '__proto__', 'constructor', 'toString', '', ','])(
    'finds nothing for %j',
    (query) => {
      expect(findCity(query)).toBeUndefined();
    },
  );

  it('finds countries by name, code or alias, but not by prototype keys', () => {
    expect(findCountry('norway')).toEqual({ country: 'Norway', countryCode: 'NO' });
    expect(findCountry('NO')).toEqual({ country: 'Norway', countryCode: 'NO' });
    expect(findCountry('uk')?.countryCode).toBe('GB');
    expect(findCountry('__proto__')).toBeUndefined();
    expect(listCountries().map((entry) => entry.countryCode)).toContain('NO');
  });

  it('measures edit distance', () => {
    expect(editDistance('osloo', 'oslo')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests close names by typo and by prefix', () => {
    expect(suggestCities('Osloo').map((city) => city.name)).toEqual(['Oslo']);
    expect(suggestCities('Tokio').map((city) => city.name)).toEqual(['Tokyo']);
    expect(suggestCities('Johannes').map((city) => city.name)).toEqual(['Johannesburg']);
    expect(suggestCities('Xyzzy')).toEqual([]);
  });

  it('writes a message that suggests a match and points to list_cities', () => {
    expect(unknownPlaceMessage('Osloo')).toBe(
      'Unknown place "Osloo". Did you mean "Oslo"? Use list_cities to see every supported city.',
    );
    expect(unknownPlaceMessage('Xyzzy')).toMatch(
      /no city in the offline dataset has a similar name.*list_cities/,
    );
    expect(unknownPlaceMessage('Paris, Texas')).toMatch(/only has Paris in France/);
  });

  it('quotes hostile input without control characters and at a bounded length', () => {
    expect(quoteForMessage('a\u0000b\nc')).toBe('"a b c"');
    expect(quoteForMessage('x'.repeat(10_000)).length).toBeLessThan(70);
    expect(hasControlCharacters('Oslo\u0000')).toBe(true);
    expect(hasControlCharacters('São Paulo')).toBe(false);
  });
});
