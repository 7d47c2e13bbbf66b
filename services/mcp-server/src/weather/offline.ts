/**
 * @module weather/offline
 * The default weather source: plausible, repeatable weather made up from each dataset city's
 * climate, so workshops work without a network. The same city and local date always give the
 * same forecast, humidity, wind and conditions, because each day's random draws are seeded from
 * the two; the current temperature and feels-like follow the local time of day, to the minute.
 * Test: `offline.test.ts`.
 */
import { ToolError } from '@mcp-workshop/shared';
import type { City } from './cities.js';
import { findCity, unknownPlaceMessage } from './lookup.js';
import {
  type CurrentConditions,
  type DailyForecast,
  MAX_FORECAST_DAYS,
  type Place,
  type WeatherProvider,
} from './provider.js';
import { describeWeatherCode, WMO } from './wmo.js';
import { wallClock } from './zoned-time.js';

const DAY_MS = 86_400_000;
const DAYS_PER_YEAR = 365.25;
const DAYS_PER_MONTH = DAYS_PER_YEAR / 12;
/** Day of year of mid-January, where the January mean sits on the curve (mid-July falls opposite). */
const MID_JANUARY = 15;
/** How far one day may stray from the seasonal mean, °C either way. */
const DAILY_ANOMALY_C = 4;
/** Typical gap between night low and afternoon high, °C; cloud and rain narrow it. */
const DRY_DAY_RANGE_C = 9;
const WET_DAY_RANGE_C = 5;
/** Local hour of the daily low; the high comes 12 hours later, a fair fit for most climates. */
const COLDEST_HOUR = 4;
/** Chance of a wet day = floor + mean daily mm / scale, capped: deserts stay dry, monsoons stay wet. */
const WET_CHANCE_FLOOR = 0.03;
const WET_CHANCE_MM_SCALE = 8;
const WET_CHANCE_CAP = 0.85;
/** Wet days at or below this high fall as snow. */
const SNOW_MAX_C = 1;
/** Rain on a day at least this warm and this heavy may come as a thunderstorm. */
const THUNDER_MIN_C = 24;
const THUNDER_MIN_MM = 6;
/** Annual precipitation at which skies are as cloudy as this model makes them. */
const CLOUDY_CLIMATE_MM = 1000;

interface DayWeather extends DailyForecast {
  humidityPercent: number;
  windSpeedKmh: number;
}

/** The offline provider. `now` decides what "today" is, so tests can fix it. */
export function createOfflineWeather(now: () => Date): WeatherProvider {
  return {
    source: 'offline-dataset',
    async getWeather(location, days) {
      const city = findCity(location);
      if (!city) throw new ToolError(unknownPlaceMessage(location));
      const count = Math.min(MAX_FORECAST_DAYS, Math.max(1, Math.trunc(days)));
      const local = localDateAndHour(now(), city.timezone);
      const forecast = Array.from({ length: count }, (_, i) => dayWeather(city, addDays(local.date, i)));
      const today = forecast[0] ?? dayWeather(city, local.date);
      return {
        place: toPlace(city),
        current: currentConditions(today, local.hour),
        forecast: forecast.map(({ date, minC, maxC, precipitationMm, weatherCode, conditions }) => ({
          date,
          minC,
          maxC,
          precipitationMm,
          weatherCode,
          conditions,
        })),
        source: 'offline-dataset',
      };
    },
  };
}

function toPlace({ name, country, countryCode, latitude, longitude, timezone }: City): Place {
  return { name, country, countryCode, latitude, longitude, timezone };
}

/** One day's weather, from nothing but the city and the date. */
export function dayWeather(city: City, date: string): DayWeather {
  const random = mulberry32(fnv1a(`${city.name}|${date}`));
  const { janMeanC, julMeanC, annualPrecipMm, wettestMonth, precipSeasonality } = city.climate;
  const day = dayOfYear(date);
  const season = Math.cos((2 * Math.PI * (day - MID_JANUARY)) / DAYS_PER_YEAR);
  // Summing three draws bunches anomalies near zero, like real day-to-day variation.
  const anomaly = ((random() + random() + random()) / 1.5 - 1) * DAILY_ANOMALY_C;
  const meanC = (janMeanC + julMeanC) / 2 + ((janMeanC - julMeanC) / 2) * season + anomaly;

  const wetPeak = (wettestMonth - 1) * DAYS_PER_MONTH + MID_JANUARY;
  const wetSeason = Math.cos((2 * Math.PI * (day - wetPeak)) / DAYS_PER_YEAR);
  const meanDailyMm = Math.max(0, (annualPrecipMm / DAYS_PER_YEAR) * (1 + precipSeasonality * wetSeason));
  const wetChance = Math.min(WET_CHANCE_CAP, WET_CHANCE_FLOOR + meanDailyMm / WET_CHANCE_MM_SCALE);
  const wet = random() < wetChance;
  // Scaled so wet days average out to the climate's total.
  const precipitationMm = wet ? round1((meanDailyMm / wetChance) * (0.3 + random() * 1.4)) : 0;

  const range = wet ? WET_DAY_RANGE_C : DRY_DAY_RANGE_C;
  const maxC = round1(meanC + range / 2);
  const minC = round1(meanC - range / 2);
  const humidityBase = 45 + Math.min(35, annualPrecipMm / 40) + (wet ? 15 : 0);
  const humidityPercent = Math.round(clamp(humidityBase + (random() - 0.5) * 16, 10, 100));
  const windSpeedKmh = round1(6 + random() * 18 + (wet ? 6 : 0));
  const cloud = random() * (0.4 + 0.6 * Math.min(1, annualPrecipMm / CLOUDY_CLIMATE_MM));
  const weatherCode = wet
    ? wetCode(maxC, precipitationMm, random())
    : dryCode(cloud, humidityPercent, random());
  return {
    date,
    minC,
    maxC,
    precipitationMm,
    weatherCode,
    conditions: describeWeatherCode(weatherCode),
    humidityPercent,
    windSpeedKmh,
  };
}

function wetCode(maxC: number, mm: number, roll: number): number {
  if (maxC <= SNOW_MAX_C) return mm < 2 ? WMO.lightSnow : mm < 6 ? WMO.snow : WMO.heavySnow;
  if (maxC >= THUNDER_MIN_C && mm >= THUNDER_MIN_MM && roll < 0.5) return WMO.thunderstorm;
  if (mm < 1) return WMO.lightDrizzle;
  if (mm < 4) return roll < 0.3 ? WMO.rainShowers : WMO.lightRain;
  return mm < 10 ? WMO.rain : WMO.heavyRain;
}

function dryCode(cloud: number, humidityPercent: number, roll: number): number {
  if (humidityPercent >= 85 && roll < 0.3) return WMO.fog;
  if (cloud < 0.3) return WMO.clearSky;
  if (cloud < 0.5) return WMO.mainlyClear;
  return cloud < 0.75 ? WMO.partlyCloudy : WMO.overcast;
}

/** Conditions at the given local hour of a day: the temperature follows the daily cycle. */
function currentConditions(day: DayWeather, hour: number): CurrentConditions {
  const warmth = (1 - Math.cos((2 * Math.PI * (hour - COLDEST_HOUR)) / 24)) / 2;
  const temperatureC = round1(day.minC + (day.maxC - day.minC) * warmth);
  return {
    temperatureC,
    feelsLikeC: round1(apparentTemperature(temperatureC, day.humidityPercent, day.windSpeedKmh)),
    humidityPercent: day.humidityPercent,
    windSpeedKmh: day.windSpeedKmh,
    weatherCode: day.weatherCode,
    conditions: day.conditions,
  };
}

/** Steadman's apparent temperature (shade), the usual "feels like": humid air warms, wind cools. */
export function apparentTemperature(tempC: number, humidityPercent: number, windKmh: number): number {
  const vapourPressureHpa = (humidityPercent / 100) * 6.105 * Math.exp((17.27 * tempC) / (237.7 + tempC));
  return tempC + 0.33 * vapourPressureHpa - 0.7 * (windKmh / 3.6) - 4;
}

/** Today's date and the fractional hour in a zone, e.g. { date: "2026-07-28", hour: 14.5 }. */
export function localDateAndHour(at: Date, timeZone: string): { date: string; hour: number } {
  const clock = wallClock(at, timeZone);
  return { date: clock.date, hour: clock.hour + clock.minute / 60 };
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function dayOfYear(date: string): number {
  const start = Date.UTC(Number(date.slice(0, 4)), 0, 1);
  return Math.floor((Date.parse(`${date}T00:00:00Z`) - start) / DAY_MS) + 1;
}

/** 32-bit FNV-1a: a tiny, stable string hash to seed the generator. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Mulberry32: a small seeded PRNG, good enough for made-up weather and identical on every platform. */
function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function round1(value: number): number {
  // "+ 0" turns -0 into 0, so JSON and equality checks never see a negative zero.
  return Math.round(value * 10) / 10 + 0;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
