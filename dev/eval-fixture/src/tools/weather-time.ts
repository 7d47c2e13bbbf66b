/**
 * @module tools/weather-time
 * Weather and clocks: the forecast, air quality, daylight, the time elsewhere, timers and alarms.
 * `set_timer`, `set_alarm` and the calendar's `create_reminder` all "go off later"; the forecast
 * sits next to the home's indoor temperature.
 */
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool, READS, stableId, stableNumber, WRITES } from '../fixture-kit.js';

const city = z
  .string()
  .min(2)
  .max(200)
  .describe('A city, optionally with its country, e.g. "Oslo" or "Porto, Portugal".');
const CONDITIONS = ['sunny', 'partly cloudy', 'cloudy', 'light rain', 'heavy rain', 'snow'] as const;

const getWeatherForecast = defineTool({
  name: 'get_weather_forecast',
  title: 'Weather forecast',
  description:
    "Get the weather outdoors in a city: today's conditions and a daily forecast of temperature, rain and wind.",
  input: z.object({
    city,
    days: z.number().int().min(1).max(7).optional().describe('How many days of forecast, 1–7; default 3.'),
  }),
  output: z.object({
    city: z.string(),
    days: z.array(
      z.object({ day: z.number().int(), conditions: z.string(), minC: z.number(), maxC: z.number() }),
    ),
  }),
  annotations: READS,
  async run({ city, days }) {
    return ok({
      city,
      days: Array.from({ length: days ?? 3 }, (_, day) => {
        const minC = stableNumber(`${city}${day}`, -5, 18);
        const conditions = CONDITIONS[stableNumber(`${day}${city}`, 0, CONDITIONS.length - 1)] ?? 'cloudy';
        return { day, conditions, minC, maxC: minC + stableNumber(city, 3, 10) };
      }),
    });
  },
});

const getAirQuality = defineTool({
  name: 'get_air_quality',
  title: 'Air quality',
  description:
    'Tell how clean the air is in a city now: the air quality index, pollen and the main pollutant, with advice for outdoor exercise.',
  input: z.object({ city }),
  output: z.object({ city: z.string(), aqi: z.number().int(), pollen: z.string(), advice: z.string() }),
  annotations: READS,
  async run({ city }) {
    const aqi = stableNumber(city, 10, 160);
    return ok({
      city,
      aqi,
      pollen: ['low', 'moderate', 'high'][stableNumber(`pollen${city}`, 0, 2)] ?? 'low',
      advice: aqi > 100 ? 'Keep outdoor exercise short.' : 'Fine for outdoor exercise.',
    });
  },
});

const getSunriseSunset = defineTool({
  name: 'get_sunrise_sunset',
  title: 'Sunrise and sunset',
  description: 'Tell when the sun rises and sets in a city on a date, and how long the day is.',
  input: z.object({
    city,
    date: z
      .string()
      .min(10)
      .max(10)
      .optional()
      .describe('The day, ISO date, e.g. "2026-06-21"; default today.'),
  }),
  output: z.object({ city: z.string(), sunrise: z.string(), sunset: z.string(), daylightHours: z.number() }),
  annotations: READS,
  async run({ city, date }) {
    const rise = stableNumber(`${city}${date ?? ''}`, 4, 8);
    const set = stableNumber(`${date ?? ''}${city}`, 17, 22);
    return ok({ city, sunrise: `0${rise}:12`, sunset: `${set}:48`, daylightHours: set - rise + 0.6 });
  },
});

const getWorldTime = defineTool({
  name: 'get_world_time',
  title: 'Time in a city',
  description: 'Tell what time and date it is now in another city or time zone, and its offset from UTC.',
  input: z.object({
    place: z
      .string()
      .min(2)
      .max(200)
      .describe('A city or IANA time zone, e.g. "Tokyo" or "America/Chicago".'),
  }),
  output: z.object({ place: z.string(), localTime: z.string(), utcOffset: z.string() }),
  annotations: READS,
  async run({ place }) {
    const offset = stableNumber(place, 0, 24) - 11;
    const sign = offset < 0 ? '-' : '+';
    return ok({
      place,
      localTime: `${String((12 + offset + 24) % 24).padStart(2, '0')}:00`,
      utcOffset: `${sign}${String(Math.abs(offset)).padStart(2, '0')}:00`,
    });
  },
});

const setTimer = defineTool({
  name: 'set_timer',
  title: 'Set a timer',
  description:
    'Start a countdown timer that rings after a number of minutes, e.g. for cooking. For a time of day, use set_alarm.',
  input: z.object({
    minutes: z.number().min(0.5).max(1440).describe('How long to count down, in minutes, e.g. 10.'),
    label: z.string().max(100).optional().describe('What the timer is for, e.g. "pasta".'),
  }),
  output: z.object({ id: z.string(), minutes: z.number(), label: z.string() }),
  annotations: WRITES,
  async run({ minutes, label }) {
    return ok({ id: stableId('timer', minutes, label), minutes, label: label ?? '' });
  },
});

const setAlarm = defineTool({
  name: 'set_alarm',
  title: 'Set an alarm',
  description:
    'Set an alarm clock to ring at a time of day, once or on repeat days, e.g. to wake up. Returns the alarm.',
  input: z.object({
    time: z
      .string()
      .regex(/^\d{2}:\d{2}$/)
      .describe('The time of day, 24-hour "HH:MM", e.g. "06:30".'),
    repeat: z
      .array(z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']))
      .max(7)
      .optional()
      .describe('Days to repeat on; default once.'),
  }),
  output: z.object({ id: z.string(), time: z.string(), repeat: z.array(z.string()) }),
  annotations: WRITES,
  async run({ time, repeat }) {
    return ok({ id: stableId('alarm', time, repeat), time, repeat: repeat ?? [] });
  },
});

/** Weather and clocks, in the order tools/list shows them. */
export const weatherTimeTools = [
  getWeatherForecast,
  getAirQuality,
  getSunriseSunset,
  getWorldTime,
  setTimer,
  setAlarm,
];
