/**
 * The check for exercise 09: is `get_almanac` findable? The workshop's tools and the participant's
 * are served over HTTP on 127.0.0.1, so the model has real neighbours to confuse it with, and the
 * real `pnpm eval` (the agent's built entry, judged by the offline demo model) asks the questions
 * in `cases.eval.yaml`. The tests read its JSON: per case, the tool expected and the tool chosen.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tools as workshopTools } from '@mcp-workshop/mcp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTools } from '../test-support/mcp.js';
import { loadParticipant } from '../test-support/participant.js';
import { type ServedTools, serveTools } from '../test-support/serve.js';
import {
  type EvalCaseRecord,
  type EvalDocument,
  pickedInstead,
  type RunningModel,
  runToolChoiceEval,
  startDemoModelProcess,
} from '../test-support/tool-choice-eval.js';

type Participant = typeof import('./starter/get-almanac.js');

const TOOL = 'get_almanac';
const CASES_FILE = join(dirname(fileURLToPath(import.meta.url)), 'cases.eval.yaml');
/** Fewer questions than this prove little: one lucky wording is not a findable tool. */
const MIN_CASES_FOR_TOOL = 3;

/** `the model picked get_time for "What time does the sun rise in Oslo?"` */
function verdict(record: EvalCaseRecord): string {
  return `${pickedInstead(record)} for "${record.question}"`;
}

describe('exercise 09: a tool the model can find', () => {
  let dataDir: string;
  let served: ServedTools | undefined;
  let model: RunningModel | undefined;
  let run: EvalDocument;

  beforeAll(async () => {
    const { getAlmanac } = await loadParticipant<Participant>('09-findable-tool', 'get-almanac.ts');
    dataDir = mkdtempSync(join(tmpdir(), 'exercise-09-'));
    // The workshop's tools first, yours last, as a tool added to tools/index.ts would be: on a
    // tie the demo model keeps the first offered, so your description has to win outright.
    served = await serveTools('exercise-09', [...workshopTools, getAlmanac], { dataDir });
    model = await startDemoModelProcess();
    const result = await runToolChoiceEval({ mcpUrl: served.mcpUrl, modelUrl: model.url, cases: CASES_FILE });
    run = result.document;
    // `pnpm exercise 09 --verbose` shows it: the same report `pnpm eval` prints (doc/WORKSHOP.md, module 16).
    if (run.summary.failed > 0) console.log(`pnpm eval's report on cases.eval.yaml:\n\n${result.report}`);
  }, 90_000);

  afterAll(async () => {
    await model?.close();
    await served?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const forTool = () => run.cases.filter((record) => record.expected === TOOL);
  const forNeighbours = () => run.cases.filter((record) => record.expected !== TOOL);

  it('the tool still answers: sunrise and sunset in Oslo at midsummer, none in Tromsø in December', async () => {
    const { getAlmanac } = await loadParticipant<Participant>('09-findable-tool', 'get-almanac.ts');
    const client = await connectTools(getAlmanac);
    try {
      const oslo = await client.client.callTool({
        name: TOOL,
        arguments: { city: 'Oslo', date: '2026-06-21' },
      });
      expect(
        oslo.structuredContent,
        'only the descriptions should change: the answer for Oslo did',
      ).toMatchObject({
        city: 'Oslo',
        sunrise: '03:53',
        sunset: '22:43',
      });
      const tromso = await client.client.callTool({
        name: TOOL,
        arguments: { city: 'Tromsø', date: '2026-12-21' },
      });
      expect(tromso.structuredContent, 'Tromsø has polar night in late December').toMatchObject({
        sunrise: null,
        note: 'polar night',
      });
    } finally {
      await client.close();
    }
  });

  it(`cases.eval.yaml asks at least ${MIN_CASES_FOR_TOOL} questions that expect ${TOOL}, judged by the offline demo model`, () => {
    expect(run.model.kind, 'the check runs pnpm eval against the offline demo model').toBe('demo');
    expect(
      forTool().length,
      `keep at least ${MIN_CASES_FOR_TOOL} cases for ${TOOL} in cases.eval.yaml; add questions, do not delete them`,
    ).toBeGreaterThanOrEqual(MIN_CASES_FOR_TOOL);
  });

  it(`the model picks ${TOOL} for every question about the sun (tell it, in their words, what it answers)`, () => {
    const missed = forTool().filter((record) => !record.chosenTools.includes(TOOL));
    expect(
      missed,
      `${missed.length} of ${forTool().length} missed it: ${missed.map(verdict).join('; ')}`,
    ).toEqual([]);
  });

  it(`it passes ${TOOL} the city the question names`, () => {
    const wrong = forTool().filter((record) => record.chosenTools.includes(TOOL) && !record.pass);
    const problems = wrong.map((record) => `"${record.question}": ${record.problems.join(', ')}`);
    expect(wrong, `wrong arguments (describe the city parameter): ${problems.join('; ')}`).toEqual([]);
  });

  it('the neighbours keep their questions: your description does not pull in questions about the clock', () => {
    expect(forNeighbours().length, 'keep the get_time case in cases.eval.yaml').toBeGreaterThan(0);
    const stolen = forNeighbours().filter((record) => !record.pass);
    const lost = stolen.map(
      (record) => `${verdict(record)}, which belongs to ${record.expected ?? 'no tool'}`,
    );
    expect(stolen, `a neighbour lost its question: ${lost.join('; ')}`).toEqual([]);
  });
});
