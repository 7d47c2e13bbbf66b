/**
 * @module weather/provider
 * What the `get_weather` and `list_cities` tools need from a weather source. Two sources
 * implement it: the built-in offline dataset (the default) and Open-Meteo.
 */

/** Forecasts beyond a week are guesswork, and Open-Meteo's default horizon is 7 days. */
export const MAX_FORECAST_DAYS = 7;

/** A place the weather is for. */
export interface Place {
  name: string;
  country: string;
  /** ISO 3166-1 alpha-2, e.g. "NO". */
  countryCode: string;
  latitude: number;
  longitude: number;
  /** IANA zone, e.g. "Europe/Oslo". */
  timezone: string;
}

export interface CurrentConditions {
  temperatureC: number;
  feelsLikeC: number;
  humidityPercent: number;
  windSpeedKmh: number;
  /** WMO weather code, as Open-Meteo uses. */
  weatherCode: number;
  conditions: string;
}

export interface DailyForecast {
  /** ISO date, YYYY-MM-DD, in the place's time zone. */
  date: string;
  minC: number;
  maxC: number;
  precipitationMm: number;
  weatherCode: number;
  conditions: string;
}

export interface WeatherReport {
  place: Place;
  current: CurrentConditions;
  forecast: DailyForecast[];
  /** Where the numbers came from, so nobody mistakes the offline dataset for a real forecast. */
  source: 'offline-dataset' | 'open-meteo';
}

export interface WeatherProvider {
  readonly source: WeatherReport['source'];
  /**
   * The weather for a place name and `days` days of forecast (1–7).
   * Throws a `ToolError` for an unknown place (with close matches) or an unreachable upstream.
   */
  getWeather(location: string, days: number, signal?: AbortSignal): Promise<WeatherReport>;
}
