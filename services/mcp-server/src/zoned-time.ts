/**
 * @module zoned-time
 * The wall-clock date and time of an instant in an IANA zone, read from `Intl` (which ships the
 * zone database with Node, so it works offline). `get_time` and the offline weather both use it.
 */

export interface WallClock {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM:SS, 24-hour clock */
  time: string;
  hour: number;
  minute: number;
  /** English, e.g. "Tuesday" */
  weekday: string;
  /** Minutes ahead of UTC, e.g. 120 for +02:00. */
  offsetMinutes: number;
}

export function wallClock(at: Date, timeZone: string): WallClock {
  const fields = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'long',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const date = `${fields.year}-${fields.month}-${fields.day}`;
  const time = `${fields.hour}:${fields.minute}:${fields.second}`;
  // The wall-clock time read as if it were UTC, minus the real instant, is the zone's offset.
  const wallAsUtc = Date.parse(`${date}T${time}Z`);
  const offsetMinutes = Math.round((wallAsUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  return {
    date,
    time,
    hour: Number(fields.hour),
    minute: Number(fields.minute),
    weekday: String(fields.weekday),
    offsetMinutes,
  };
}
