import { describe, expect, it } from 'vitest';
import type { ToolCallTrace } from '../trace.js';
import type { EvalCase } from './cases.js';
import { judge, seenCalls } from './judge.js';

const weatherCase: EvalCase = {
  id: 'get_weather#1',
  file: 'x.eval.yaml',
  question: 'Weather in Oslo?',
  steps: [{ tool: 'get_weather', args: { location: { mentions: 'Oslo' } } }],
};
const call = (tool: string, args: unknown = {}) => ({ tool, unknown: false, arguments: args });

describe('judge', () => {
  it('passes the expected tool with matching arguments', () => {
    expect(judge(weatherCase, [call('get_weather', { location: 'Oslo' })])).toEqual({
      pass: true,
      chosen: ['get_weather'],
      arguments: [{ location: 'Oslo' }],
      argsOk: true,
      problems: [],
    });
  });

  it('fails another tool, naming both, and does not judge arguments it was not asked about', () => {
    const verdict = judge(weatherCase, [call('get_time', { timezone: 'Europe/Oslo' })]);
    expect(verdict.pass).toBe(false);
    expect(verdict.argsOk).toBe(true);
    expect(verdict.problems).toEqual(['expected get_weather, chose get_time']);
  });

  it('fails wrong arguments on the first call, even when a retry got them right', () => {
    const verdict = judge(weatherCase, [
      call('get_weather', { location: 'Bergen' }),
      call('get_weather', { location: 'Oslo' }),
    ]);
    expect(verdict.chosen).toEqual(['get_weather']);
    expect(verdict.argsOk).toBe(false);
    expect(verdict.problems).toEqual([
      'get_weather arguments: location: expected a mention of "Oslo", got "Bergen"',
    ]);
  });

  it('wants no call at all for a "no tool" case', () => {
    const none: EvalCase = { ...weatherCase, steps: [] };
    expect(judge(none, []).pass).toBe(true);
    expect(judge(none, [call('calculate')]).problems).toEqual(['expected no tool, chose calculate']);
  });

  it('wants several tools in their order', () => {
    const two: EvalCase = {
      ...weatherCase,
      steps: [
        { tool: 'list_tasks', args: {} },
        { tool: 'complete_task', args: { id: 2 } },
      ],
    };
    expect(judge(two, [call('list_tasks'), call('complete_task', { id: 2 })]).pass).toBe(true);
    expect(judge(two, [call('complete_task', { id: 2 }), call('list_tasks')]).problems).toEqual([
      'expected list_tasks then complete_task, chose complete_task then list_tasks',
    ]);
    expect(judge(two, [call('list_tasks')]).pass).toBe(false);
    expect(judge(two, [call('list_tasks'), call('complete_task', { id: 3 })]).problems).toEqual([
      'complete_task arguments: id: expected 2, got 3',
    ]);
  });

  it('says when the model called a function no server offers', () => {
    const verdict = judge(weatherCase, [{ tool: 'get_wether', unknown: true, arguments: {} }]);
    expect(verdict.problems[0]).toBe('called get_wether, which no server offers');
  });
});

describe('seenCalls', () => {
  const trace = (fields: Partial<ToolCallTrace>) => fields as ToolCallTrace;
  it("leaves out the agent's own search_tools and read_skill, and calls a view made", () => {
    expect(
      seenCalls([
        trace({ functionName: 'search_tools', arguments: { query: 'weather' } }),
        trace({ functionName: 'read_skill', server: 'w', tool: 'skill://w/x', arguments: {} }),
        trace({
          functionName: 'task_board_refresh',
          tool: 'task_board_refresh',
          calledBy: 'view',
          arguments: {},
        }),
        trace({
          functionName: 'get_weather',
          server: 'w',
          tool: 'get_weather',
          arguments: { location: 'Oslo' },
        }),
        trace({ functionName: 'nope', arguments: '{bad' }),
      ]),
    ).toEqual([
      { tool: 'get_weather', unknown: false, arguments: { location: 'Oslo' } },
      { tool: 'nope', unknown: true, arguments: '{bad' },
    ]);
  });

  it('keeps an MCP tool that happens to be called search_tools', () => {
    expect(
      seenCalls([trace({ functionName: 'search_tools', tool: 'search_tools', arguments: {} })]),
    ).toHaveLength(1);
  });
});
