/**
 * @module catalogue
 * The fixture catalogue: 60 tools an assistant might hold side by side (calendar, mail and messages,
 * files and notes, travel, money, music, the home, weather and clocks), for measuring how a model
 * picks among many tools, with progressive discovery off and on (issue 40). Served by `serve.ts`;
 * its cases are in `cases/`, one file per domain.
 */
import { defineCatalogue } from '@mcp-workshop/mcp-host/kit';
import type { FixtureDeps } from './fixture-kit.js';
import { fixtureTools } from './tools/index.js';

const fixtureCatalogue = defineCatalogue<Record<never, never>, FixtureDeps>({
  name: 'eval-fixture',
  version: '0.1.0',
  title: 'Eval fixture: 60 tools',
  services: () => ({ deps: {} }),
  tools: fixtureTools,
});

export default fixtureCatalogue;
