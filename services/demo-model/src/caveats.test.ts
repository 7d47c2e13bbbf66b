/**
 * Tests for `caveats.ts`: the days, times and arithmetic a question asks about that no call
 * carried are named in the answer; what the script does read, or passed on in an argument, is not.
 */
import { describe, expect, it } from 'vitest';
import { caveatsFor } from './caveats.js';
import { planTurn } from './planner.js';
import type { PlannedCall, PlannerMessage, PlannerTool } from './types.js';

const weather = (location: string, extra: Record<string, unknown> = {}): PlannedCall => ({
  name: 'get_weather',
  arguments: { location, ...extra },
});

describe('caveatsFor', () => {
  it.each([
    ['What was the weather in Oslo yesterday?', 'yesterday'],
    ['weather in Oslo on the 3rd of December', '3rd of December'],
    ['weather in Oslo on December 3', 'December 3'],
    ['weather in Oslo on 2026-12-03', '2026-12-03'],
    ['weather in Oslo on Friday at 5pm', 'at 5pm'],
    ['weather in Oslo at noon', 'at noon'],
    ['weather in Oslo next week', 'next week'],
    ['weather in Oslo last weekend', 'last weekend'],
    ['weather in Oslo in 10 days', 'in 10 days'],
  ])('names the time in %j that no call carried', (question, time) => {
    const [caveat] = caveatsFor(question, [weather('Oslo')]);
    expect(caveat).toContain(`“${time}”`);
    expect(caveat).toContain('into account');
  });

  it.each([
    "What's the weather in Oslo?",
    'weather in Oslo tomorrow',
    'weather in Oslo next Friday',
    'weather in Oslo the day after tomorrow',
    'weather in Oslo for the next 5 days',
    'may I have the weather in Oslo',
  ])('has nothing to add for %j, which the script reads whole', (question) => {
    expect(caveatsFor(question, [weather('Oslo')])).toEqual([]);
  });

  it('says nothing about a time passed on inside an argument', () => {
    const call = { name: 'add_task', arguments: { title: 'buy milk tomorrow at 5pm' } };
    expect(caveatsFor('add a task to buy milk tomorrow at 5pm', [call])).toEqual([]);
  });

  it("names arithmetic on a tool's result that no call carried", () => {
    const [caveat] = caveatsFor('what is 10% of the temperature in Oslo', [weather('Oslo')]);
    expect(caveat).toContain('I did not calculate “10% of”');
  });

  it('says nothing about arithmetic a call carried', () => {
    const call = { name: 'calculate', arguments: { expression: '1 / 2 + 3' } };
    expect(caveatsFor('What is 1/2 + 3', [call])).toEqual([]);
    const title = { name: 'add_task', arguments: { title: 'pay 2 x 50 NOK' } };
    expect(caveatsFor('add a task: pay 2 x 50 NOK', [title])).toEqual([]);
  });

  it('names at most a few times in a message full of them', () => {
    const question = `weather in Oslo ${'yesterday, at 5pm, next week, last month, '.repeat(50)}`;
    expect(caveatsFor(question, [weather('Oslo')])).toHaveLength(3);
  });
});

describe('planTurn with a part it could not carry', () => {
  const tools: PlannerTool[] = [
    {
      name: 'get_weather',
      description: 'Get the current weather and a forecast for a city.',
      parameters: {
        type: 'object',
        properties: { location: { type: 'string', description: 'City name, e.g. "Oslo".' } },
        required: ['location'],
      },
    },
  ];

  it('says so before quoting the result, instead of answering as if the question were read whole', () => {
    const question = 'What was the weather in Oslo yesterday?';
    const first = planTurn({ messages: [{ role: 'user', content: question }], tools });
    expect(first).toEqual({ kind: 'tool_calls', calls: [weather('Oslo')] });
    const messages: PlannerMessage[] = [
      { role: 'user', content: question },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Oslo"}' },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: '{"place":{"name":"Oslo"},"current":{"conditions":"Rain"}}',
      },
    ];
    const answer = planTurn({ messages, tools });
    expect(answer.kind).toBe('answer');
    const text = answer.kind === 'answer' ? answer.text : '';
    expect(text.split('\n')[0]).toContain('I could not take “yesterday” into account');
    expect(text).toContain('"Rain"');
  });
});
