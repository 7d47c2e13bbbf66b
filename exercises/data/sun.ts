/**
 * @module data/sun
 * What exercise 09's tool answers with: sunrise, sunset and day length for a few cities, from the
 * sunrise equation (NOAA's simplified form, good to about a minute away from the poles). Offline and
 * deterministic, so the exercise is about the tool's description, not about its data.
 */

export interface SunCity {
  name: string;
  /** Decimal degrees, north and east positive. */
  latitude: number;
  longitude: number;
  timezone: string;
}

export const SUN_CITIES: readonly SunCity[] = [
  { name: 'Oslo', latitude: 59.91, longitude: 10.75, timezone: 'Europe/Oslo' },
  { name: 'Bergen', latitude: 60.39, longitude: 5.32, timezone: 'Europe/Oslo' },
  { name: 'Tromsø', latitude: 69.65, longitude: 18.96, timezone: 'Europe/Oslo' },
  { name: 'Reykjavik', latitude: 64.15, longitude: -21.94, timezone: 'Atlantic/Reykjavik' },
  { name: 'London', latitude: 51.51, longitude: -0.13, timezone: 'Europe/London' },
  { name: 'Paris', latitude: 48.86, longitude: 2.35, timezone: 'Europe/Paris' },
  { name: 'New York', latitude: 40.71, longitude: -74.01, timezone: 'America/New_York' },
  { name: 'Tokyo', latitude: 35.68, longitude: 139.69, timezone: 'Asia/Tokyo' },
  { name: 'Sydney', latitude: -33.87, longitude: 151.21, timezone: 'Australia/Sydney' },
];

/** The city of that name, ignoring case and accents ("tromso" finds Tromsø). */
export function findSunCity(name: string): SunCity | undefined {
  const fold = (text: string) =>
    text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ø/g, 'o').trim().toLowerCase();
  return SUN_CITIES.find((city) => fold(city.name) === fold(name));
}

export type SunDay =
  | { kind: 'normal'; sunrise: Date; sunset: Date; dayLengthMinutes: number }
  | { kind: 'midnight sun' | 'polar night' };

/** True for a YYYY-MM-DD that names a real day: "2026-02-30" does not. */
export function isCalendarDate(date: string): boolean {
  const parsed = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed) && new Date(parsed).toISOString().slice(0, 10) === date;
}

const J2000 = 2_451_545;
const UNIX_EPOCH_JULIAN = 2_440_587.5;
const MS_PER_DAY = 86_400_000;
/** Refraction and the sun's radius: the sun "rises" while its centre is still 0.833° below the horizon. */
const HORIZON_DEGREES = -0.833;
const EARTH_TILT_DEGREES = 23.4397;

const rad = (degrees: number) => (degrees * Math.PI) / 180;
const deg = (radians: number) => (radians * 180) / Math.PI;

/** Sunrise and sunset on `date` (YYYY-MM-DD, the local calendar day at the city's longitude). */
export function sunDay(city: SunCity, date: string): SunDay {
  if (!isCalendarDate(date)) throw new RangeError(`not a date: "${date}"`);
  const noonUtc = Date.parse(`${date}T12:00:00Z`);
  const day = Math.round(noonUtc / MS_PER_DAY + UNIX_EPOCH_JULIAN - J2000);
  const meanSolarNoon = day - city.longitude / 360;
  const anomaly = (357.5291 + 0.98560028 * meanSolarNoon) % 360;
  const centre =
    1.9148 * Math.sin(rad(anomaly)) + 0.02 * Math.sin(rad(2 * anomaly)) + 0.0003 * Math.sin(rad(3 * anomaly));
  const eclipticLongitude = (anomaly + centre + 180 + 102.9372) % 360;
  const transit =
    J2000 + meanSolarNoon + 0.0053 * Math.sin(rad(anomaly)) - 0.0069 * Math.sin(rad(2 * eclipticLongitude));
  const declination = Math.asin(Math.sin(rad(eclipticLongitude)) * Math.sin(rad(EARTH_TILT_DEGREES)));
  const latitude = rad(city.latitude);
  const cosHourAngle =
    (Math.sin(rad(HORIZON_DEGREES)) - Math.sin(latitude) * Math.sin(declination)) /
    (Math.cos(latitude) * Math.cos(declination));
  if (cosHourAngle < -1) return { kind: 'midnight sun' };
  if (cosHourAngle > 1) return { kind: 'polar night' };
  const hourAngle = deg(Math.acos(cosHourAngle));
  const toDate = (julian: number) => new Date(Math.round((julian - UNIX_EPOCH_JULIAN) * MS_PER_DAY));
  return {
    kind: 'normal',
    sunrise: toDate(transit - hourAngle / 360),
    sunset: toDate(transit + hourAngle / 360),
    dayLengthMinutes: Math.round((2 * hourAngle * 24 * 60) / 360),
  };
}

/** "HH:MM" on the wall clock of `timezone`. */
export function localClock(instant: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant);
}

/** Today's date (YYYY-MM-DD) on the wall clock of `timezone`. */
export function localDate(instant: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}
