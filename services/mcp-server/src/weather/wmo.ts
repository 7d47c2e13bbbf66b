/**
 * @module weather/wmo
 * WMO weather interpretation codes (WW), the subset Open-Meteo returns, with English text.
 * Both weather sources use it, so the same code always reads the same. Test: `wmo.test.ts`.
 */

/** The codes the offline dataset picks from; Open-Meteo may send any code in {@link WMO_CONDITIONS}. */
export const WMO = {
  clearSky: 0,
  mainlyClear: 1,
  partlyCloudy: 2,
  overcast: 3,
  fog: 45,
  lightDrizzle: 51,
  lightRain: 61,
  rain: 63,
  heavyRain: 65,
  lightSnow: 71,
  snow: 73,
  heavySnow: 75,
  rainShowers: 81,
  thunderstorm: 95,
} as const;

/** Code → condition text, following Open-Meteo's documented table. */
export const WMO_CONDITIONS: ReadonlyMap<number, string> = new Map([
  [0, 'Clear sky'],
  [1, 'Mainly clear'],
  [2, 'Partly cloudy'],
  [3, 'Overcast'],
  [45, 'Fog'],
  [48, 'Depositing rime fog'],
  [51, 'Light drizzle'],
  [53, 'Drizzle'],
  [55, 'Dense drizzle'],
  [56, 'Light freezing drizzle'],
  [57, 'Dense freezing drizzle'],
  [61, 'Light rain'],
  [63, 'Rain'],
  [65, 'Heavy rain'],
  [66, 'Light freezing rain'],
  [67, 'Heavy freezing rain'],
  [71, 'Light snow'],
  [73, 'Snow'],
  [75, 'Heavy snow'],
  [77, 'Snow grains'],
  [80, 'Light rain showers'],
  [81, 'Rain showers'],
  [82, 'Violent rain showers'],
  [85, 'Light snow showers'],
  [86, 'Heavy snow showers'],
  [95, 'Thunderstorm'],
  [96, 'Thunderstorm with light hail'],
  [99, 'Thunderstorm with heavy hail'],
]);

/** English text for a code. An unknown code still gets a readable label rather than an error. */
export function describeWeatherCode(code: number): string {
  return WMO_CONDITIONS.get(code) ?? `Unknown conditions (WMO code ${code})`;
}
