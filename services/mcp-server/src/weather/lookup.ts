/**
 * @module weather/lookup
 * Finds a dataset city or country from what a model typed ("sao paulo", "OSLO", "Oslo, NO"),
 * and writes the "did you mean" message when nothing matches. Test: `lookup.test.ts`.
 */
import { CITIES, type City, COUNTRY_ALIASES } from './cities.js';

/** Enough to choose from without flooding the model's context. */
const MAX_SUGGESTIONS = 3;
/** Typos allowed per this many characters of the query: "Osloo" (5) may be 1 edit from "Oslo". */
const CHARS_PER_ALLOWED_EDIT = 3;
/** More edits than this is a different word, however long the query. */
const MAX_ALLOWED_EDITS = 3;
/** A shorter prefix ("Sa") matches too much of the list to be a useful suggestion. */
const MIN_PREFIX_LENGTH = 3;
/** Echoed input is cut here, so a hostile 10k-character argument is not sent back whole. */
const MAX_ECHO_LENGTH = 60;

export interface CountryRef {
  country: string;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
}

/** Lower case, accents and punctuation dropped, single spaces: "São-Paulo " → "sao paulo". */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Place and country names never contain control characters; tools refuse such input outright. */
export function hasControlCharacters(text: string): boolean {
  return /\p{Cc}/u.test(text);
}

/** Input made safe to quote in a message: no control characters, bounded length. */
export function quoteForMessage(text: string): string {
  const clean = text
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = clean.length > MAX_ECHO_LENGTH ? `${clean.slice(0, MAX_ECHO_LENGTH)}…` : clean;
  return `"${cut}"`;
}

// Maps, not objects, so a name like "__proto__" or "constructor" is just a missing key.
const cityByKey = new Map<string, City>();
for (const entry of CITIES) {
  for (const name of [entry.name, ...entry.aliases]) cityByKey.set(normalizeName(name), entry);
}

const countryByKey = new Map<string, CountryRef>();
for (const { country, countryCode } of CITIES) {
  const ref = { country, countryCode };
  countryByKey.set(normalizeName(country), ref);
  countryByKey.set(countryCode.toLowerCase(), ref);
}
for (const [alias, code] of COUNTRY_ALIASES) {
  const ref = countryByKey.get(code.toLowerCase());
  if (ref) countryByKey.set(alias, ref);
}

/** The dataset's countries by name, each once. */
export function listCountries(): CountryRef[] {
  const byCode = new Map(CITIES.map(({ country, countryCode }) => [countryCode, { country, countryCode }]));
  return [...byCode.values()].sort((a, b) => a.country.localeCompare(b.country, 'en'));
}

/** A dataset country from its name, ISO code or a common alias ("UK"), or undefined. */
export function findCountry(text: string): CountryRef | undefined {
  return countryByKey.get(normalizeName(text));
}

/** Splits "Oslo, Oslo County, Norway" into the name and the last part, the country. */
function splitLocation(location: string): { name: string; country?: string } {
  const parts = location.split(',');
  const name = parts[0] ?? '';
  return parts.length > 1 ? { name, country: parts.at(-1) } : { name };
}

function inCountry(city: City, countryText: string): boolean {
  return findCountry(countryText)?.countryCode === city.countryCode;
}

/** The dataset city a location names, or undefined. Accepts "Oslo", "oslo, NO" and "Oslo Norway". */
export function findCity(location: string): City | undefined {
  const { name, country } = splitLocation(location);
  const key = normalizeName(name);
  const direct = cityByKey.get(key);
  if (direct) return country === undefined || inCountry(direct, country) ? direct : undefined;
  if (country !== undefined) return undefined;
  // No comma: try every split of "new york usa" into a city name and a country.
  const words = key.split(' ');
  for (let i = 1; i < words.length; i++) {
    const candidate = cityByKey.get(words.slice(0, i).join(' '));
    if (candidate && inCountry(candidate, words.slice(i).join(' '))) return candidate;
  }
  return undefined;
}

/** Classic edit distance; inputs are bounded by the tool schema, so the quadratic cost is small. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** How far a query is from a city name, or undefined when it is too far to suggest. */
function closeness(query: string, key: string): number | undefined {
  if (query.length >= MIN_PREFIX_LENGTH && (key.startsWith(query) || query.startsWith(key))) return 0;
  const allowed = Math.min(MAX_ALLOWED_EDITS, Math.max(1, Math.floor(query.length / CHARS_PER_ALLOWED_EDIT)));
  if (Math.abs(query.length - key.length) > allowed) return undefined;
  const distance = editDistance(query, key);
  return distance <= allowed ? distance : undefined;
}

/** Dataset cities whose name or alias is close to the location's name part, closest first. */
export function suggestCities(location: string): City[] {
  const query = normalizeName(splitLocation(location).name);
  if (!query) return [];
  const scored: Array<{ city: City; score: number }> = [];
  for (const entry of CITIES) {
    const scores = [entry.name, ...entry.aliases]
      .map((name) => closeness(query, normalizeName(name)))
      .filter((score): score is number => score !== undefined);
    if (scores.length > 0) scored.push({ city: entry, score: Math.min(...scores) });
  }
  return scored
    .sort((a, b) => a.score - b.score)
    .slice(0, MAX_SUGGESTIONS)
    .map(({ city }) => city);
}

/** The message for a place the dataset does not have, written so the model can retry. */
export function unknownPlaceMessage(location: string): string {
  const shown = quoteForMessage(location);
  const listHint = 'Use list_cities to see every supported city.';
  const { name } = splitLocation(location);
  const sameName = cityByKey.get(normalizeName(name));
  if (sameName) {
    return `Unknown place ${shown}. The offline dataset only has ${sameName.name} in ${sameName.country}; call again with "${sameName.name}". ${listHint}`;
  }
  const suggestions = suggestCities(location).map((entry) => `"${entry.name}"`);
  if (suggestions.length === 0) {
    return `Unknown place ${shown}: no city in the offline dataset has a similar name. ${listHint}`;
  }
  const options =
    suggestions.length === 1
      ? suggestions[0]
      : `${suggestions.slice(0, -1).join(', ')} or ${suggestions.at(-1)}`;
  return `Unknown place ${shown}. Did you mean ${options}? ${listHint}`;
}
