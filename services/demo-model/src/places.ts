/**
 * @module places
 * Finds place names and IANA time zones in a message, for the demo model's argument extraction
 * (`extract.ts`). Country names and zones come from `Intl`, so nothing here is a hand-kept list.
 */
import { isConceptWord, STOPWORDS } from './score.js';

/** A capitalised word, letters and marks only: "Oslo", "São", "Aix-en-Provence", "O'Hare". */
const CAP_WORD = String.raw`\p{Lu}[\p{L}\p{M}'’-]*`;
/** Lower-case words that sit inside multi-word place names ("Rio de Janeiro", "Frankfurt am Main"). */
const CONNECTOR =
  '(?:de|da|do|dos|das|del|della|di|du|la|le|les|los|las|el|al|upon|am|im|sur|en|von|van|der)';
const PLACE = String.raw`${CAP_WORD}(?:\s+(?:${CONNECTOR}\s+)?${CAP_WORD})*`;
const SEPARATOR = String.raw`\s*(?:,|\band\b|&|\bor\b)\s*`;
/** Everything a place-bearing message would put after "in", e.g. "Oslo, Bergen and Paris". */
const PLACE_LIST = `${PLACE}(?:${SEPARATOR}(?:PREPS\\s+)?${PLACE})*`;

/** Prepositions that introduce a place when the parameter gives no more specific hint. */
export const GENERIC_PLACE_PREPOSITIONS = ['in', 'for', 'at', 'near', 'around'] as const;

/** Either case of the first letter, without the `i` flag (which would make `\p{Lu}` match lower case). */
function prepositionPattern(prepositions: readonly string[]): string {
  return prepositions.map((p) => `[${p[0]?.toUpperCase()}${p[0]}]${p.slice(1)}`).join('|');
}

const isStopword = (word: string) => STOPWORDS.has(word.toLowerCase()) || /^\d/.test(word);
const isNoise = (word: string) => isStopword(word) || isConceptWord(word.toLowerCase());

/**
 * Drops words around a place that are not part of it: "Please", "Today", "Weather". A leading
 * concept word is only dropped when no preposition vouched for the phrase, so "in New York" keeps "New".
 */
function trimNoise(place: string, vouched: boolean): string {
  const parts = place.replace(/[.’']+$/u, '').split(/\s+/);
  while (parts.length > 0 && (vouched ? isStopword : isNoise)(parts[0] ?? '')) parts.shift();
  while (parts.length > 0 && isNoise(parts.at(-1) ?? '')) parts.pop();
  return parts.join(' ');
}

let countryNames: Set<string> | undefined;
/** English country names that `Intl` knows, lower case, built once. */
function isCountry(word: string): boolean {
  if (!countryNames) {
    countryNames = new Set();
    const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    for (let a = 65; a <= 90; a += 1) {
      for (let b = 65; b <= 90; b += 1) {
        const code = String.fromCharCode(a, b);
        const name = display.of(code);
        if (name && name !== code) countryNames.add(name.toLowerCase());
      }
    }
  }
  return /^[A-Z]{2}$/.test(word) || countryNames.has(word.toLowerCase());
}

/** Splits "Oslo, Bergen and Paris, FR" into places, keeping ", FR" or ", Norway" with its city. */
function splitPlaceList(list: string, prepositions: readonly string[]): string[] {
  const places: string[] = [];
  const pieces = list.split(/(\s*,\s*|\s+and\s+|\s*&\s*|\s+or\s+)/u);
  for (let i = 0; i < pieces.length; i += 2) {
    const separator = pieces[i - 1] ?? '';
    const raw = (pieces[i] ?? '').replace(
      new RegExp(`^(?:${prepositionPattern(prepositions)})\\s+`, 'u'),
      '',
    );
    const piece = trimNoise(raw, true);
    if (!piece) continue;
    const previous = places.at(-1);
    if (previous && separator.trim() === ',' && isCountry(piece) && !previous.includes(',')) {
      places[places.length - 1] = `${previous}, ${piece}`;
    } else {
      places.push(piece);
    }
  }
  return places;
}

/**
 * Places named after one of `prepositions` ("weather in Oslo and Bergen" → Oslo, Bergen). A
 * single lower-case word is accepted too ("time in tokyo"). With `anywhere`, any capitalised
 * phrase counts when no preposition introduced one ("Oslo forecast?").
 */
export function findPlaces(
  text: string,
  prepositions: readonly string[] = GENERIC_PLACE_PREPOSITIONS,
  anywhere = false,
): string[] {
  const preps = prepositionPattern(prepositions);
  const found: string[] = [];
  const listRe = new RegExp(
    String.raw`(?<![\p{L}])(?:${preps})\s+(?:the\s+)?(${PLACE_LIST.replaceAll('PREPS', `(?:${preps})`)})`,
    'gu',
  );
  for (const match of text.matchAll(listRe)) found.push(...splitPlaceList(match[1] ?? '', prepositions));
  if (found.length === 0) {
    const lowerRe = new RegExp(String.raw`(?<![\p{L}])(?:${preps})\s+(\p{Ll}[\p{L}\p{M}'’-]{2,})`, 'gu');
    for (const match of text.matchAll(lowerRe)) {
      const word = match[1] ?? '';
      if (!isNoise(word)) {
        found.push(word);
        break;
      }
    }
  }
  if (found.length === 0 && anywhere) {
    for (const match of text.matchAll(new RegExp(PLACE, 'gu'))) {
      const place = trimNoise(match[0], false);
      if (place) found.push(place);
    }
  }
  return dedupe(found);
}

let zonesByCity: Map<string, string> | undefined;
/** Folds "São Paulo" and "Sao_Paulo" to the same key. */
function cityKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();
}

/** The IANA zone whose city part is this place ("Tokyo" → "Asia/Tokyo"), if `Intl` has one. */
export function zoneForPlace(place: string): string | undefined {
  if (!zonesByCity) {
    zonesByCity = new Map();
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      const city = zone.split('/').at(-1);
      if (city && zone.includes('/')) zonesByCity.set(cityKey(city), zone);
    }
  }
  const city = place.split(',')[0] ?? '';
  return zonesByCity.get(cityKey(city));
}

/** Time zones the message names: literal IANA names and UTC/GMT first, else places mapped to zones. */
export function findTimeZones(text: string): { zones: string[]; unresolved: string[] } {
  const literal = [...text.matchAll(/(?<![\w/])[A-Z][A-Za-z_-]+(?:\/[A-Za-z_+-]+){1,2}(?![\w/])/g)].map(
    (m) => m[0],
  );
  if (/\b(?:UTC|GMT)\b/.test(text)) literal.push('UTC');
  if (literal.length > 0) return { zones: dedupe(literal), unresolved: [] };
  const zones: string[] = [];
  const unresolved: string[] = [];
  for (const place of findPlaces(text, GENERIC_PLACE_PREPOSITIONS, true)) {
    const zone = zoneForPlace(place);
    if (zone) zones.push(zone);
    else unresolved.push(place);
  }
  return { zones: dedupe(zones), unresolved };
}

function dedupe(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = value.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
