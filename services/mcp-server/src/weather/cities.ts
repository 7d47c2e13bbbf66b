/**
 * @module weather/cities
 * The offline dataset: Norway's three largest cities plus big cities on every continent, with
 * the few climate numbers `offline.ts` needs to make up plausible, repeatable weather.
 * Coordinates and climate means are rounded general-knowledge values, not measurements.
 */
import type { Place } from './provider.js';

/** Enough climate to draw a seasonal curve. January/July means already encode the hemisphere. */
export interface CityClimate {
  /** Mean January temperature, °C (midsummer south of the equator). */
  janMeanC: number;
  /** Mean July temperature, °C. */
  julMeanC: number;
  /** Typical precipitation over a year, mm. */
  annualPrecipMm: number;
  /** 1–12: the month the precipitation curve peaks. */
  wettestMonth: number;
  /** 0 = rain spread evenly over the year, 1 = nearly all of it in the wet season (monsoon). */
  precipSeasonality: number;
}

export interface City extends Place {
  /** Other names people use ("Bombay", "NYC"); matched like the name. */
  aliases: readonly string[];
  climate: CityClimate;
}

/** [janMeanC, julMeanC, annualPrecipMm, wettestMonth, precipSeasonality], to keep one city per row. */
type ClimateRow = readonly [number, number, number, number, number];

function city(
  name: string,
  country: string,
  countryCode: string,
  [latitude, longitude]: readonly [number, number],
  timezone: string,
  [janMeanC, julMeanC, annualPrecipMm, wettestMonth, precipSeasonality]: ClimateRow,
  aliases: readonly string[] = [],
): City {
  return {
    name,
    country,
    countryCode,
    latitude,
    longitude,
    timezone,
    aliases,
    climate: { janMeanC, julMeanC, annualPrecipMm, wettestMonth, precipSeasonality },
  };
}

/** Every city the offline provider knows, Norway first, then roughly by population. */
export const CITIES: readonly City[] = [
  city('Oslo', 'Norway', 'NO', [59.91, 10.75], 'Europe/Oslo', [-3.5, 17, 790, 8, 0.3]),
  city('Bergen', 'Norway', 'NO', [60.39, 5.32], 'Europe/Oslo', [2, 15, 2250, 10, 0.35]),
  city('Trondheim', 'Norway', 'NO', [63.43, 10.4], 'Europe/Oslo', [-2.5, 14, 890, 9, 0.25]),
  city('Tokyo', 'Japan', 'JP', [35.68, 139.69], 'Asia/Tokyo', [5.4, 26, 1530, 9, 0.5]),
  city('Delhi', 'India', 'IN', [28.61, 77.21], 'Asia/Kolkata', [14, 31, 800, 7, 1], ['New Delhi']),
  city('Shanghai', 'China', 'CN', [31.23, 121.47], 'Asia/Shanghai', [5, 29, 1160, 6, 0.5]),
  city('São Paulo', 'Brazil', 'BR', [-23.55, -46.63], 'America/Sao_Paulo', [23, 16.5, 1450, 1, 0.75]),
  city(
    'Mexico City',
    'Mexico',
    'MX',
    [19.43, -99.13],
    'America/Mexico_City',
    [14, 17, 820, 7, 0.95],
    ['Ciudad de México', 'CDMX'],
  ),
  city('Cairo', 'Egypt', 'EG', [30.04, 31.24], 'Africa/Cairo', [14, 28, 25, 1, 0.8]),
  city('Mumbai', 'India', 'IN', [19.08, 72.88], 'Asia/Kolkata', [24, 27.5, 2200, 7, 1], ['Bombay']),
  city('Beijing', 'China', 'CN', [39.9, 116.41], 'Asia/Shanghai', [-3, 27, 570, 7, 1], ['Peking']),
  city('Dhaka', 'Bangladesh', 'BD', [23.81, 90.41], 'Asia/Dhaka', [19, 29, 2100, 7, 0.95]),
  city('Osaka', 'Japan', 'JP', [34.69, 135.5], 'Asia/Tokyo', [6, 28, 1280, 6, 0.5]),
  city(
    'New York',
    'United States',
    'US',
    [40.71, -74.01],
    'America/New_York',
    [0.5, 25, 1200, 7, 0.1],
    ['New York City', 'NYC'],
  ),
  city('Karachi', 'Pakistan', 'PK', [24.86, 67.01], 'Asia/Karachi', [18.5, 30, 170, 7, 1]),
  city(
    'Buenos Aires',
    'Argentina',
    'AR',
    [-34.6, -58.38],
    'America/Argentina/Buenos_Aires',
    [24.5, 11, 1240, 3, 0.3],
  ),
  city('Istanbul', 'Turkey', 'TR', [41.01, 28.98], 'Europe/Istanbul', [6, 24, 820, 12, 0.7]),
  city('Kolkata', 'India', 'IN', [22.57, 88.36], 'Asia/Kolkata', [20, 30, 1600, 7, 1], ['Calcutta']),
  city('Manila', 'Philippines', 'PH', [14.6, 120.98], 'Asia/Manila', [26, 28, 2050, 8, 0.9]),
  city('Lagos', 'Nigeria', 'NG', [6.52, 3.38], 'Africa/Lagos', [27, 25.5, 1650, 6, 0.8]),
  city(
    'Rio de Janeiro',
    'Brazil',
    'BR',
    [-22.91, -43.17],
    'America/Sao_Paulo',
    [26.5, 21.5, 1200, 12, 0.45],
    ['Rio'],
  ),
  city('Tianjin', 'China', 'CN', [39.34, 117.36], 'Asia/Shanghai', [-3.5, 27, 540, 7, 1]),
  city('Kinshasa', 'DR Congo', 'CD', [-4.44, 15.27], 'Africa/Kinshasa', [26, 23, 1400, 11, 0.9]),
  city('Guangzhou', 'China', 'CN', [23.13, 113.26], 'Asia/Shanghai', [13.5, 29, 1800, 6, 0.8], ['Canton']),
  city(
    'Los Angeles',
    'United States',
    'US',
    [34.05, -118.24],
    'America/Los_Angeles',
    [14, 24, 380, 2, 1],
    ['LA'],
  ),
  city('Moscow', 'Russia', 'RU', [55.76, 37.62], 'Europe/Moscow', [-6.5, 19, 700, 7, 0.3]),
  city('Shenzhen', 'China', 'CN', [22.54, 114.06], 'Asia/Shanghai', [15.5, 29, 1930, 6, 0.85]),
  city('Lahore', 'Pakistan', 'PK', [31.55, 74.34], 'Asia/Karachi', [12.5, 32, 630, 7, 1]),
  city('Bangalore', 'India', 'IN', [12.97, 77.59], 'Asia/Kolkata', [21.5, 23.5, 970, 9, 0.85], ['Bengaluru']),
  city('Paris', 'France', 'FR', [48.86, 2.35], 'Europe/Paris', [5, 20.5, 640, 5, 0.15]),
  city('Bogotá', 'Colombia', 'CO', [4.71, -74.07], 'America/Bogota', [14, 13.5, 800, 10, 0.45]),
  city('Jakarta', 'Indonesia', 'ID', [-6.21, 106.85], 'Asia/Jakarta', [27, 28, 1800, 1, 0.75]),
  city('Chennai', 'India', 'IN', [13.08, 80.27], 'Asia/Kolkata', [25, 31, 1400, 11, 1], ['Madras']),
  city('Lima', 'Peru', 'PE', [-12.05, -77.04], 'America/Lima', [23, 16.5, 15, 8, 0.5]),
  city('Bangkok', 'Thailand', 'TH', [13.76, 100.5], 'Asia/Bangkok', [27, 29, 1500, 9, 0.95]),
  city('Seoul', 'South Korea', 'KR', [37.57, 126.98], 'Asia/Seoul', [-2, 25.5, 1420, 7, 1]),
  city('Nagoya', 'Japan', 'JP', [35.18, 136.91], 'Asia/Tokyo', [4.5, 27, 1580, 7, 0.5]),
  city('Hyderabad', 'India', 'IN', [17.39, 78.49], 'Asia/Kolkata', [22, 27, 810, 8, 1]),
  city('London', 'United Kingdom', 'GB', [51.51, -0.13], 'Europe/London', [5.5, 19, 630, 11, 0.15]),
  city('Tehran', 'Iran', 'IR', [35.69, 51.39], 'Asia/Tehran', [4, 31, 230, 3, 0.9]),
  city('Chicago', 'United States', 'US', [41.88, -87.63], 'America/Chicago', [-4, 24, 940, 6, 0.35]),
  city('Sydney', 'Australia', 'AU', [-33.87, 151.21], 'Australia/Sydney', [23, 13, 1150, 6, 0.35]),
  city('Berlin', 'Germany', 'DE', [52.52, 13.4], 'Europe/Berlin', [0.5, 19.5, 570, 7, 0.25]),
  city('Madrid', 'Spain', 'ES', [40.42, -3.7], 'Europe/Madrid', [6.5, 26, 420, 11, 0.7]),
  city('Toronto', 'Canada', 'CA', [43.65, -79.38], 'America/Toronto', [-5.5, 22.5, 830, 7, 0.15]),
  city('Nairobi', 'Kenya', 'KE', [-1.29, 36.82], 'Africa/Nairobi', [19.5, 16, 900, 4, 0.8]),
  city('Johannesburg', 'South Africa', 'ZA', [-26.2, 28.05], 'Africa/Johannesburg', [20.5, 11, 710, 1, 0.95]),
  city('Stockholm', 'Sweden', 'SE', [59.33, 18.07], 'Europe/Stockholm', [-1.5, 18, 540, 7, 0.3]),
  city('Copenhagen', 'Denmark', 'DK', [55.68, 12.57], 'Europe/Copenhagen', [1.5, 17.5, 610, 8, 0.25]),
  city('Helsinki', 'Finland', 'FI', [60.17, 24.94], 'Europe/Helsinki', [-4, 18, 680, 8, 0.35]),
  city('Reykjavík', 'Iceland', 'IS', [64.15, -21.94], 'Atlantic/Reykjavik', [0, 11.5, 850, 10, 0.35]),
  city('Singapore', 'Singapore', 'SG', [1.35, 103.82], 'Asia/Singapore', [26.5, 27.5, 2340, 12, 0.35]),
  city('Dubai', 'United Arab Emirates', 'AE', [25.2, 55.27], 'Asia/Dubai', [19, 35, 80, 2, 0.9]),
  city('Hong Kong', 'Hong Kong', 'HK', [22.32, 114.17], 'Asia/Hong_Kong', [16.5, 29, 2400, 8, 0.9]),
  city('Rome', 'Italy', 'IT', [41.9, 12.5], 'Europe/Rome', [8, 25, 800, 11, 0.6]),
  city('Amsterdam', 'Netherlands', 'NL', [52.37, 4.9], 'Europe/Amsterdam', [3.5, 18, 840, 11, 0.2]),
  city('Vancouver', 'Canada', 'CA', [49.28, -123.12], 'America/Vancouver', [4, 18, 1190, 11, 0.7]),
  city('Santiago', 'Chile', 'CL', [-33.45, -70.67], 'America/Santiago', [21, 8.5, 310, 6, 1]),
  city('Casablanca', 'Morocco', 'MA', [33.57, -7.59], 'Africa/Casablanca', [12.5, 22.5, 420, 12, 0.95]),
  city('Cape Town', 'South Africa', 'ZA', [-33.92, 18.42], 'Africa/Johannesburg', [21.5, 12.5, 515, 6, 0.85]),
  city('Melbourne', 'Australia', 'AU', [-37.81, 144.96], 'Australia/Melbourne', [20.5, 10, 650, 10, 0.2]),
  city('Auckland', 'New Zealand', 'NZ', [-36.85, 174.76], 'Pacific/Auckland', [19.5, 11, 1100, 7, 0.35]),
];

/** Other names for countries in the dataset, as people type them; keys are normalized. */
export const COUNTRY_ALIASES: ReadonlyMap<string, string> = new Map([
  ['usa', 'US'],
  ['united states of america', 'US'],
  ['america', 'US'],
  ['uk', 'GB'],
  ['great britain', 'GB'],
  ['england', 'GB'],
  ['uae', 'AE'],
  ['drc', 'CD'],
  ['democratic republic of the congo', 'CD'],
  ['turkiye', 'TR'],
  ['korea', 'KR'],
  ['republic of korea', 'KR'],
  ['holland', 'NL'],
]);
