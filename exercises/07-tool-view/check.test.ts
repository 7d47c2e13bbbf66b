/**
 * The check for exercise 07: `list_cities` with the MCP Apps view `ui://cities/list`. The server
 * side through the official MCP client (in-process); the view built with vite as the catalogue's
 * views are, served by your resource, and drawn in the system Chromium inside a small AppBridge
 * host (test-support/view-host.ts) with real list_cities results. Each test name is a sentence
 * `pnpm exercise 07` prints when it fails.
 */
import { tools } from '@mcp-workshop/mcp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingBrowser, skipsWithoutBrowser } from '../test-support/browser.js';
import { buildView } from '../test-support/build-view.js';
import { type Connected, connect, connectTools, exerciseContext } from '../test-support/mcp.js';
import { loadParticipant, participantDir } from '../test-support/participant.js';
import { type RenderedView, startViewHost, type ViewHost } from '../test-support/view-host.js';
import { connectsToHost, externalLoads } from '../test-support/view-html.js';

type Participant = typeof import('./starter/cities-server.js');

const EXERCISE = '07-tool-view';
const VIEW_URI = 'ui://cities/list';
const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
/** Stands in for the view when it did not build, so the server-side checks still run. */
const NOT_BUILT = '<!-- the view did not build -->';

interface City {
  name: string;
  country: string;
}
interface CallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

const browserMissing = missingBrowser();
const skipBrowser = browserMissing !== undefined && skipsWithoutBrowser();
if (skipBrowser) console.warn(`skipped: exercise 07's view checks (${browserMissing}, then pnpm test again)`);
/** The checks that draw the view: skipped only in `pnpm test` on a machine without Chromium. */
const inBrowser = skipBrowser ? it.skip : it;

describe('exercise 07: list_cities gets a view', () => {
  let conn: Connected;
  let builtHtml = NOT_BUILT;
  let buildError: unknown;
  let host: Promise<ViewHost> | undefined;

  beforeAll(async () => {
    const { listCities, registerCitiesView } = await loadParticipant<Participant>(
      EXERCISE,
      'cities-server.ts',
    );
    try {
      builtHtml = await buildView(participantDir(EXERCISE), 'cities-view.html');
    } catch (error) {
      buildError = error;
    }
    const context = exerciseContext();
    conn = await connect((server) => {
      listCities.register(server, context);
      registerCitiesView(server, builtHtml);
    });
  });
  afterAll(async () => {
    await conn?.close();
    await (await host?.catch(() => undefined))?.close();
  });

  /** Chromium and the host page, started by the first check that needs them. */
  const viewHost = (): Promise<ViewHost> => {
    if (browserMissing) throw new Error(browserMissing);
    host ??= startViewHost();
    return host;
  };

  const listed = async () => {
    const { tools: listedTools } = await conn.client.listTools();
    const tool = listedTools.find((entry) => entry.name === 'list_cities');
    expect(tool, 'tools/list has no list_cities').toBeDefined();
    return tool as NonNullable<typeof tool>;
  };

  const expectViewBuilt = () => {
    expect(buildError, `your view did not build: ${String(buildError)}`).toBeUndefined();
  };

  /** The view as a host gets it: resources/read of ui://cities/list. */
  const readView = async () => {
    const read = await conn.client.readResource({ uri: VIEW_URI }).then(
      (answer) => answer,
      (error: unknown) => error,
    );
    expect(
      read,
      `reading ${VIEW_URI} failed: register the view with registerAppResource (step 2)`,
    ).not.toBeInstanceOf(Error);
    const { contents } = read as {
      contents: Array<{ uri: string; mimeType?: string; text?: string; _meta?: Record<string, unknown> }>;
    };
    expect(contents, `reading ${VIEW_URI} should answer with exactly one item`).toHaveLength(1);
    return contents[0] as NonNullable<(typeof contents)[0]>;
  };

  const call = async (args: Record<string, unknown>): Promise<CallResult> =>
    (await conn.client.callTool({ name: 'list_cities', arguments: args })) as CallResult;

  /**
   * Draws `result` of list_cities(`args`) with the view the server serves; fails with the host's
   * status. A view with no App yet fails at once, before a browser would wait for it in vain.
   */
  const draw = async (args: Record<string, unknown>, result: CallResult): Promise<RenderedView> => {
    expectViewBuilt();
    const { text } = await readView();
    expect(
      connectsToHost(text ?? ''),
      'your view never connects to the host: in cities-view.ts, create an App and call app.connect() (step 3)',
    ).toBe(true);
    return (await viewHost()).render(text ?? '', args, result);
  };

  /** The text of each table row (or list item) the view drew. */
  const rowsOf = ({ view }: RenderedView): Promise<string[]> =>
    view.locator('tr, li').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));

  /** Waits until the view drew a row naming `city`, then returns every row. */
  const drawnRows = async (rendered: RenderedView, city: string): Promise<string[]> => {
    const drew = await rendered.view
      .locator('tr, li')
      .filter({ hasText: city })
      .first()
      .waitFor()
      .then(
        () => true,
        () => false,
      );
    expect(
      drew,
      `the view got the result but drew no row with "${city}": fill <tbody id="cities"> in ontoolresult`,
    ).toBe(true);
    return rowsOf(rendered);
  };

  it('list_cities declares the view ui://cities/list (tools/list shows _meta.ui.resourceUri)', async () => {
    const tool = await listed();
    expect(
      (tool._meta?.ui as { resourceUri?: unknown } | undefined)?.resourceUri,
      "add ui: { resourceUri: CITIES_VIEW_URI } to list_cities's defineTool",
    ).toBe(VIEW_URI);
  });

  it('a client without MCP Apps gets the same list_cities results as before: content and structuredContent', async () => {
    // Before the view is declared, "the same as before" is true of any code; it proves nothing.
    expect((await listed())._meta?.ui, 'declare the view on list_cities first (step 1)').toBeDefined();
    const catalogue = tools.find((tool) => tool.name === 'list_cities');
    if (!catalogue) throw new Error("the catalogue has no list_cities: the check's own setup is broken");
    const before = await connectTools(catalogue);
    try {
      for (const args of [{}, { country: 'NO' }, { country: 'Atlantis' }]) {
        const wanted = await before.client.callTool({ name: 'list_cities', arguments: args });
        const got = await call(args);
        expect(
          { content: got.content, structuredContent: got.structuredContent, isError: got.isError },
          `list_cities ${JSON.stringify(args)} should answer exactly as the catalogue's list_cities: a view changes tools/list, never results`,
        ).toEqual({
          content: wanted.content,
          structuredContent: wanted.structuredContent,
          isError: wanted.isError,
        });
      }
    } finally {
      await before.close();
    }
  });

  it('ui://cities/list is listed as a text/html;profile=mcp-app resource', async () => {
    const { resources } = await conn.client.listResources().catch(() => ({ resources: [] }));
    const view = resources.find((resource) => resource.uri === VIEW_URI);
    expect(view, `resources/list has no ${VIEW_URI}: register it with registerAppResource`).toBeDefined();
    expect(view?.mimeType, `${VIEW_URI} mimeType`).toBe(VIEW_MIME_TYPE);
  });

  it('reading ui://cities/list gives one text/html;profile=mcp-app document: your view, self-contained', async () => {
    const item = await readView();
    expect(item.uri, 'the item should echo the URI that was read').toBe(VIEW_URI);
    expect(item.mimeType, 'the item should be an MCP Apps view: mimeType RESOURCE_MIME_TYPE').toBe(
      VIEW_MIME_TYPE,
    );
    expectViewBuilt();
    expect(item.text, 'the text should be the html registerCitiesView was given, unchanged').toBe(builtHtml);
    const loads = externalLoads(item.text ?? '');
    expect(loads, `the view must load nothing from elsewhere, but it has ${loads.join('; ')}`).toEqual([]);
  });

  it('the view declares no outside origin in its CSP (_meta.ui.csp)', async () => {
    const item = await readView();
    const csp = (item._meta?.ui as { csp?: Record<string, unknown> } | undefined)?.csp;
    expect(csp, 'the read item should carry _meta: { ui: { csp: { ... } } }').toBeDefined();
    for (const [list, origins] of Object.entries(csp ?? {}))
      expect(origins, `csp.${list} should name no origin: the view fetches nothing`).toEqual([]);
  });

  inBrowser(
    'the view draws every city of a real list_cities result, with its country (in Chromium)',
    async () => {
      const result = await call({});
      const cities = (result.structuredContent as { items: City[] }).items;
      expect(cities.length, 'list_cities {} should list cities').toBeGreaterThan(3);
      const rows = await drawnRows(await draw({}, result), cities[0]?.name ?? '');
      for (const city of cities)
        expect(
          rows.some((row) => row.includes(city.name) && row.includes(city.country)),
          `no row shows "${city.name}" with "${city.country}": one row per city, its name and its country`,
        ).toBe(true);
    },
  );

  inBrowser(
    'the view draws the result it is given: list_cities { country: "NO" } shows only Norway',
    async () => {
      const everything = ((await call({})).structuredContent as { items: City[] }).items;
      const result = await call({ country: 'NO' });
      const norway = (result.structuredContent as { items: City[] }).items;
      const elsewhere = everything.filter((city) => city.country !== 'Norway');
      expect(norway.length > 0 && elsewhere.length > 0, 'the dataset should have Norway and more').toBe(true);
      const rows = await drawnRows(await draw({ country: 'NO' }, result), norway[0]?.name ?? '');
      for (const city of norway)
        expect(
          rows.some((row) => row.includes(city.name)),
          `no row shows "${city.name}"`,
        ).toBe(true);
      for (const city of elsewhere)
        expect(
          rows.some((row) => row.includes(city.name)),
          `the view drew "${city.name}" (${city.country}), which this result does not hold: draw result.structuredContent`,
        ).toBe(false);
    },
  );

  inBrowser(
    'the view shows the error, and no cities, when list_cities fails (country "Atlantis")',
    async () => {
      const result = await call({ country: 'Atlantis' });
      expect(result.isError, 'list_cities { country: "Atlantis" } should fail').toBe(true);
      const rendered = await draw({ country: 'Atlantis' }, result);
      const said = await rendered.view
        .getByText(/No cities for country/)
        .first()
        .waitFor()
        .then(
          () => true,
          () => false,
        );
      expect(said, "the view should show the failed result's text (showStatus) when result.isError").toBe(
        true,
      );
      const rows = await rowsOf(rendered);
      const everything = ((await call({})).structuredContent as { items: City[] }).items;
      const drawn = everything.filter((city) => rows.some((row) => row.includes(city.name)));
      expect(
        drawn.map((city) => city.name),
        `a failed call has no cities to draw, yet the view drew ${drawn.map((city) => city.name).join(', ')}`,
      ).toEqual([]);
    },
  );
});
