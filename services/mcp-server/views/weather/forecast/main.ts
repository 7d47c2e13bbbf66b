/**
 * The `ui://weather/forecast` view: draws a `get_weather` result as a card, converts temperatures
 * between °C and °F in place, and asks the server for a longer forecast ("More days") through the
 * host with `callServerTool`. Logic: `model.ts`. Built by `views/build.mjs`.
 */
import { createApp, h, resultText, showStatus, type ToolResultLike } from '../../shared/app.js';
import { formatTemperature, locationOf, nextDays, parseWeather, type Unit, type Weather } from './model.js';

const app = createApp('mcp-workshop-weather');
let unit: Unit = 'C';
let weather: Weather | undefined;
/** The `location` the model passed, so "More days" asks for the same place. */
let askedFor: unknown;
let busy = false;

function render(): void {
  const card = document.getElementById('card');
  if (!card || !weather) return;
  const { place, current, forecast, source } = weather;
  const more = nextDays(forecast.length);
  const toggle = h(
    'button',
    { type: 'button', 'data-testid': 'unit-toggle' },
    unit === 'C' ? 'Show °F' : 'Show °C',
  );
  toggle.addEventListener('click', () => {
    unit = unit === 'C' ? 'F' : 'C';
    render();
  });
  const moreButton = h('button', { type: 'button', 'data-testid': 'more-days' }, 'More days');
  if (more === undefined || busy) moreButton.setAttribute('disabled', '');
  moreButton.addEventListener('click', () => void loadMoreDays());
  const rows = forecast.map((day) =>
    h(
      'tr',
      { 'data-testid': 'forecast-day' },
      h('td', {}, day.date),
      h('td', {}, day.conditions),
      h('td', {}, `${formatTemperature(day.minC, unit)} – ${formatTemperature(day.maxC, unit)}`),
      h('td', {}, `${day.precipitationMm} mm`),
    ),
  );
  card.replaceChildren(
    h('h2', { 'data-testid': 'place' }, `${place.name}, ${place.country}`),
    h(
      'p',
      { class: 'row' },
      h(
        'span',
        { class: 'now', 'data-testid': 'temperature' },
        formatTemperature(current.temperatureC, unit),
      ),
      h('span', {}, current.conditions),
    ),
    h(
      'p',
      { class: 'muted' },
      `Feels like ${formatTemperature(current.feelsLikeC, unit)} · humidity ${current.humidityPercent} % · wind ${current.windSpeedKmh} km/h`,
    ),
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h('tr', {}, h('th', {}, 'Day'), h('th', {}, 'Sky'), h('th', {}, 'Low – high'), h('th', {}, 'Rain')),
      ),
      h('tbody', {}, ...rows),
    ),
    h('p', { class: 'row' }, toggle, moreButton),
    h(
      'p',
      { class: 'muted', 'data-testid': 'source' },
      source === 'offline-dataset'
        ? 'Offline dataset: plausible numbers, not a real forecast.'
        : 'Live data from Open-Meteo.',
    ),
  );
}

/** Draws a result, or says why it cannot. */
function show(result: ToolResultLike): void {
  const parsed = result.isError ? undefined : parseWeather(result.structuredContent);
  if (!parsed) {
    showStatus(resultText(result) || 'The weather could not be read.');
    return;
  }
  weather = parsed;
  showStatus('');
  render();
}

async function loadMoreDays(): Promise<void> {
  const days = weather ? nextDays(weather.forecast.length) : undefined;
  if (!weather || days === undefined || busy) return;
  busy = true;
  render();
  showStatus(`Loading ${days} days…`);
  try {
    const result = await app.callServerTool({
      name: 'get_weather',
      arguments: { location: locationOf(weather, askedFor), days },
    });
    show(result);
  } catch (error) {
    showStatus(
      `The host could not call get_weather: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    busy = false;
    render();
  }
}

app.ontoolinput = ({ arguments: args }) => {
  askedFor = args?.location;
};
app.ontoolresult = (result) => show(result);
app.connect().catch((error: unknown) => {
  showStatus(`Could not connect to the host: ${error instanceof Error ? error.message : String(error)}`);
});
