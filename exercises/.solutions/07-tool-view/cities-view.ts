/// <reference lib="dom" />
/**
 * @module 07-tool-view/solution/cities-view
 * Exercise 07, solved: the `ui://cities/list` view. It runs in the host's sandboxed frame, gets
 * list_cities's result from the host through ext-apps' `App`, and draws one table row per city.
 * Loaded by `cities-view.html`; the check builds both into one file.
 */
import { resultText } from '@mcp-workshop/shared';
import { App } from '@modelcontextprotocol/ext-apps';

/** What the view draws of each city. */
interface City {
  name: string;
  country: string;
}

/** The cities of a list_cities result's `structuredContent`; none for anything else. */
function citiesOf(structuredContent: unknown): City[] {
  const items = (structuredContent as { items?: unknown } | undefined)?.items;
  if (!Array.isArray(items)) return [];
  return items.filter(
    (item): item is City => typeof item?.name === 'string' && typeof item?.country === 'string',
  );
}

function showStatus(text: string): void {
  const status = document.getElementById('status');
  if (status) status.textContent = text;
}

const app = new App({ name: 'cities-view', version: '0.1.0' });

app.ontoolresult = (result) => {
  const body = document.getElementById('cities');
  if (!body) return;
  if (result.isError) {
    // A failed call says why in its text; the model read the same words.
    body.replaceChildren();
    showStatus(resultText(result));
    return;
  }
  const cities = citiesOf(result.structuredContent);
  const rows = cities.map((city) => {
    const row = document.createElement('tr');
    for (const text of [city.name, city.country]) {
      const cell = document.createElement('td');
      // textContent, never innerHTML: a name is data, and data must not become markup.
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  body.replaceChildren(...rows);
  showStatus(`${cities.length} cities`);
};

app.connect().catch((error: unknown) => showStatus(`Could not connect to the host: ${String(error)}`));
