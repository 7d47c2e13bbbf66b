/// <reference lib="dom" />
/**
 * @module 07-tool-view/starter/cities-view
 * Exercise 07, the view: the `ui://cities/list` page. It runs in the host's sandboxed frame, gets
 * list_cities's result from the host through ext-apps' `App`, and draws one table row per city.
 * Loaded by `cities-view.html` (no need to edit it); the check builds both into one file.
 * The catalogue's views do the same: `services/mcp-server/views/weather/forecast/main.ts`.
 */

// TODO(exercise 07): you will need the App class, and resultText for a failed result's text.
// Uncomment both lines, here where they sit.
// import { resultText } from '@mcp-workshop/shared';
// import { App } from '@modelcontextprotocol/ext-apps';

/** What the view draws of each city. */
interface City {
  name: string;
  country: string;
}

/** The cities of a list_cities result's `structuredContent`; none for anything else. */
export function citiesOf(structuredContent: unknown): City[] {
  const items = (structuredContent as { items?: unknown } | undefined)?.items;
  if (!Array.isArray(items)) return [];
  return items.filter(
    (item): item is City => typeof item?.name === 'string' && typeof item?.country === 'string',
  );
}

/** Shows `text` in the line under the table (`<p id="status">`). */
export function showStatus(text: string): void {
  const status = document.getElementById('status');
  if (status) status.textContent = text;
}

// TODO(exercise 07): create the view's App: new App({ name: 'cities-view', version: '0.1.0' }).

// TODO(exercise 07): set app.ontoolresult, which the host calls with list_cities's result:
// - fill <tbody id="cities"> with one <tr> per city of citiesOf(result.structuredContent),
//   with two <td>: the city's name and its country. Set their textContent, never innerHTML;
// - when result.isError, draw no rows and show the result's text with showStatus: resultText(result)
//   gives it (result.content[0].text does not compile: a block may be an image, or missing).

// TODO(exercise 07): connect to the host with app.connect(). It returns a promise: show a failure
// with showStatus.
