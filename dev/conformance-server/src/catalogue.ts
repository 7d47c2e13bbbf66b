/**
 * @module catalogue
 * The workshop catalogue plus the conformance suite's fixtures (`fixtures/`), as another catalogue
 * for the same runner: the fixtures register after the catalogue's own items (`extend`), their MCP
 * Task work goes to the host's task runtime (`taskWorks`), and the SDK refuses a tampered fixture
 * `requestState` with -32602 (`requestState`; a handler cannot: the SDK turns its throws into
 * isError results). The workshop's own lists stay free of fixtures.
 */
import { defineCatalogue } from '@mcp-workshop/mcp-host/kit';
import workshop from '@mcp-workshop/mcp-server';
import { registerConformanceFixtures } from './fixtures/index.js';
import { fixtureRequestState } from './fixtures/request-state.js';
import { taskFixtureWorks } from './fixtures/task-tools.js';

const conformanceCatalogue = defineCatalogue({
  ...workshop,
  extend: registerConformanceFixtures,
  taskWorks: taskFixtureWorks,
  requestState: fixtureRequestState,
});

export default conformanceCatalogue;
