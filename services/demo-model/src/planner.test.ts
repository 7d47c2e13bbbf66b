/**
 * Tests for `planner.ts`: tool choice and arguments on a workshop-like tool set and on an
 * unrelated one (to prove nothing is written for particular tools), answers that quote results,
 * the single retry with a suggested value, and the help texts.
 */

import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { MAX_PLANNED_CHARS, planTurn } from './planner.js';
import { DEMO_LABEL, type Plan, type PlannedCall, type PlannerMessage, type PlannerTool } from './types.js';

/** Written like the workshop server's tools, but defined here: the planner must not know them. */
const WORKSHOP_TOOLS: PlannerTool[] = [
  {
    name: 'get_weather',
    description:
      'Get the current weather and a daily forecast (1–7 days, default 3) for a city. The offline dataset ' +
      'has 60 large cities (see list_cities). Returns the place, current conditions (temperature, humidity, wind).',
    parameters: {
      type: 'object',
      properties: {
        location: {
          type: 'string',
          description:
            'City name, optionally followed by a comma and the country, e.g. "Oslo" or "Paris, FR".',
        },
        days: {
          type: 'integer',
          minimum: 1,
          maximum: 7,
          description: 'Number of forecast days, 1–7. Defaults to 3.',
        },
      },
      required: ['location'],
    },
  },
  {
    name: 'list_cities',
    description:
      'List the cities in the offline weather dataset. Optionally filter by country name or ISO code.',
    parameters: {
      type: 'object',
      properties: {
        country: { type: 'string', description: 'Only list cities in this country, e.g. "Norway".' },
      },
    },
  },
  {
    name: 'calculate',
    description:
      'Evaluate an arithmetic expression. Supports + - * / ^ %, parentheses, sqrt, abs, round(x, digits), ' +
      'min, max, log(x, base) and the constants pi and e.',
    parameters: {
      type: 'object',
      properties: {
        expression: { type: 'string', description: 'One arithmetic expression, e.g. "(2 + 3) * 4".' },
      },
      required: ['expression'],
    },
  },
  {
    name: 'get_time',
    description:
      'Get the current local date and time in an IANA time zone. Pass a zone such as "Asia/Tokyo".',
    parameters: {
      type: 'object',
      properties: {
        timezone: {
          type: 'string',
          description: 'IANA time zone name, e.g. "Europe/Oslo". Not a city name.',
        },
      },
      required: ['timezone'],
    },
  },
  {
    name: 'add_task',
    description: "Add a task to the user's task list. Returns the new task with its id.",
    parameters: {
      type: 'object',
      properties: {
        title: { type: 'string', description: 'What to do, as one line of plain text, e.g. "Buy milk".' },
      },
      required: ['title'],
    },
  },
  {
    name: 'list_tasks',
    description:
      "List the user's tasks with their ids, oldest first. Use it to find the id that complete_task needs.",
    parameters: {
      type: 'object',
      properties: {
        status: {
          type: 'string',
          enum: ['all', 'open', 'done'],
          description: 'Which tasks to list. Default "all".',
        },
      },
    },
  },
  {
    name: 'complete_task',
    description:
      "Mark a task on the user's task list as done, by id. Get the id from list_tasks or add_task.",
    parameters: {
      type: 'object',
      properties: { id: { type: 'integer', description: 'The id of the task, e.g. 3.' } },
      required: ['id'],
    },
  },
  {
    name: 'delete_task',
    description:
      "Permanently delete a task from the user's task list, by id. To mark a task finished, use complete_task.",
    parameters: {
      type: 'object',
      properties: { id: { type: 'integer', description: 'The id of the task, e.g. 3.' } },
      required: ['id'],
    },
  },
];

/** A tool set the planner has never heard of. */
const TRAVEL_TOOLS: PlannerTool[] = [
  {
    name: 'searchFlights',
    description: 'Search for flights between two airports or cities.',
    parameters: {
      type: 'object',
      properties: {
        origin: { type: 'string', description: 'Where the flight departs from.' },
        destination: { type: 'string', description: 'Where the flight goes.' },
        nonstop: { type: 'boolean', description: 'Only direct flights.' },
      },
      required: ['origin', 'destination'],
    },
  },
  {
    name: 'convert_currency',
    description: 'Convert an amount of money from one currency to another.',
    parameters: {
      type: 'object',
      properties: {
        amount: { type: 'number', description: 'How much money to convert.' },
        from: { type: 'string', enum: ['USD', 'EUR', 'NOK', 'JPY'] },
        to: { type: 'string', enum: ['USD', 'EUR', 'NOK', 'JPY'] },
      },
      required: ['amount', 'from', 'to'],
    },
  },
];

const ask = (question: string, tools: PlannerTool[] = WORKSHOP_TOOLS): Plan =>
  planTurn({ messages: [{ role: 'user', content: question }], tools });

function callsOf(plan: Plan) {
  if (plan.kind !== 'tool_calls') throw new Error(`expected tool calls, got the answer: ${plan.text}`);
  return plan.calls;
}

function textOf(plan: Plan): string {
  if (plan.kind !== 'answer') throw new Error(`expected an answer, got calls: ${JSON.stringify(plan.calls)}`);
  return plan.text;
}

/** A conversation in which the model called `name(args)` and the tool sent back `result`. */
function afterCall(
  question: string,
  name: string,
  args: Record<string, unknown>,
  result: unknown,
): PlannerMessage[] {
  return [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: question },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    },
    {
      role: 'tool',
      tool_call_id: 'call_1',
      content: typeof result === 'string' ? result : JSON.stringify(result),
    },
  ];
}

/** Stands in for a missing turn, so `textOf` fails with a message. */
const NO_TURN: Plan = { kind: 'tool_calls', calls: [] };

/** The gist of a turn: its calls, or just "answer". */
function summary(plan: Plan): PlannedCall[] | 'answer' {
  return plan.kind === 'tool_calls' ? plan.calls : 'answer';
}

/**
 * Plays a whole conversation the way an agent does: each turn's calls get their results from
 * `results`, and the next turn sees them. Returns every turn; stops at the answer.
 */
function converse(
  question: string,
  results: (call: PlannedCall) => unknown,
  tools: PlannerTool[] = WORKSHOP_TOOLS,
): Plan[] {
  const messages: PlannerMessage[] = [{ role: 'user', content: question }];
  const turns: Plan[] = [];
  // A conversation that does not end within a few turns is itself the bug under test.
  for (let turn = 0; turn < 8; turn += 1) {
    const plan = planTurn({ messages, tools });
    turns.push(plan);
    if (plan.kind === 'answer') break;
    const ids = plan.calls.map((_, index) => `call_${turn}_${index}`);
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: plan.calls.map((call, index) => ({
        id: ids[index] ?? '',
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      })),
    });
    plan.calls.forEach((call, index) => {
      messages.push({ role: 'tool', tool_call_id: ids[index], content: JSON.stringify(results(call)) });
    });
  }
  return turns;
}

/** A task list tool set's results, with a list that really holds what was added before. */
function taskResults(): (call: PlannedCall) => unknown {
  const items: Array<{ id: number; title: string; done: boolean }> = [];
  return (call) => {
    if (call.name === 'add_task') {
      const task = { id: items.length + 1, title: String(call.arguments.title), done: false };
      items.push(task);
      return { task };
    }
    if (call.name === 'list_tasks') return { status: 'all', items: [...items], count: items.length };
    return { error: `unexpected ${call.name}` };
  };
}

/** London from Monday 2026-11-23, a week, shaped like a typical weather tool's result. */
function londonWeek() {
  const day = (date: string, minC: number, maxC: number, precipitationMm: number, conditions: string) => ({
    date,
    minC,
    maxC,
    precipitationMm,
    weatherCode: 0,
    conditions,
  });
  return {
    place: { name: 'London', country: 'United Kingdom', timezone: 'Europe/London' },
    current: { temperatureC: 8.6, conditions: 'Partly cloudy' },
    forecast: [
      day('2026-11-23', 2.9, 11.9, 0, 'Partly cloudy'),
      day('2026-11-24', 3, 10.4, 0, 'Partly cloudy'),
      day('2026-11-25', 1.8, 10.8, 9.5, 'Rain'),
      day('2026-11-26', 4, 8, 0.1, 'Overcast'),
      day('2026-11-27', 6.1, 9, 4.2, 'Light rain'),
      day('2026-11-28', 5, 7.5, 0, 'Clear sky'),
      day('2026-11-29', 2, 6, 0, 'Mainly clear'),
    ],
    source: 'offline-dataset',
  };
}

describe('planTurn', () => {
  describe('tool choice on a workshop-like tool set', () => {
    it.each([
      ["What's the weather in Oslo?", 'get_weather', { location: 'Oslo' }],
      ['Forecast for São Paulo for the next 5 days', 'get_weather', { location: 'São Paulo', days: 5 }],
      ['is it raining in bergen?', 'get_weather', { location: 'bergen' }],
      ['How hot is it in Paris, FR today', 'get_weather', { location: 'Paris, FR' }],
      ['weather in Rio de Janeiro', 'get_weather', { location: 'Rio de Janeiro' }],
      ['Which cities do you have in Norway?', 'list_cities', { country: 'Norway' }],
      ['which cities are supported', 'list_cities', {}],
      ['What is (2 + 3) * 4?', 'calculate', { expression: '(2 + 3) * 4' }],
      ['sqrt(16) plus 2^10', 'calculate', { expression: 'sqrt(16) + 2 ^ 10' }],
      ['what is 3 times 4', 'calculate', { expression: '3 * 4' }],
      ['round(10 / 3, 2) please', 'calculate', { expression: 'round(10 / 3, 2)' }],
      ['What time is it in Tokyo?', 'get_time', { timezone: 'Asia/Tokyo' }],
      ['current time in New York', 'get_time', { timezone: 'America/New_York' }],
      ['time in Europe/Oslo', 'get_time', { timezone: 'Europe/Oslo' }],
      ['Add a task to buy milk', 'add_task', { title: 'buy milk' }],
      ['add "Call mom" to my list', 'add_task', { title: 'Call mom' }],
      ['Create a new todo called Water the plants.', 'add_task', { title: 'Water the plants' }],
      ['Remind me to renew the passport', 'add_task', { title: 'renew the passport' }],
      ['Add a task to buy milk and eggs', 'add_task', { title: 'buy milk and eggs' }],
      ['List my open tasks', 'list_tasks', { status: 'open' }],
      ['show my tasks', 'list_tasks', {}],
      ['Mark task 3 as done', 'complete_task', { id: 3 }],
      ['I finished #4', 'complete_task', { id: 4 }],
      ['delete task 2', 'delete_task', { id: 2 }],
      ['remove task number 7', 'delete_task', { id: 7 }],
    ])('calls the right tool for %j', (question, name, args) => {
      expect(callsOf(ask(question))).toEqual([{ name, arguments: args }]);
    });

    it('reads an enum that strict mode wrapped as anyOf with null, as the agent sends it', () => {
      const strictTools = WORKSHOP_TOOLS.map((tool) =>
        tool.name === 'list_tasks'
          ? {
              ...tool,
              parameters: {
                type: 'object',
                properties: {
                  status: {
                    anyOf: [{ type: 'string', enum: ['all', 'open', 'done'] }, { type: 'null' }],
                    description: 'Which tasks to list. Default "all".',
                  },
                },
                required: ['status'],
                additionalProperties: false,
              },
            }
          : tool,
      );
      expect(callsOf(ask('List my open tasks', strictTools))).toEqual([
        { name: 'list_tasks', arguments: { status: 'open' } },
      ]);
      // Still optional in practice: with no status named, null leaves it to the tool's default.
      expect(callsOf(ask('List my tasks', strictTools))).toEqual([
        { name: 'list_tasks', arguments: { status: null } },
      ]);
    });

    it('makes one call per place when the message lists several', () => {
      expect(callsOf(ask('Weather in Oslo and Bergen for 2 days?'))).toEqual([
        { name: 'get_weather', arguments: { location: 'Oslo', days: 2 } },
        { name: 'get_weather', arguments: { location: 'Bergen', days: 2 } },
      ]);
      expect(callsOf(ask('what time is it in London and Tokyo')).map((c) => c.arguments.timezone)).toEqual([
        'Europe/London',
        'Asia/Tokyo',
      ]);
    });

    it('calls two different tools when two clauses ask for two things', () => {
      expect(callsOf(ask("What's the weather in Oslo and what time is it in Tokyo?"))).toEqual([
        { name: 'get_weather', arguments: { location: 'Oslo' } },
        { name: 'get_time', arguments: { timezone: 'Asia/Tokyo' } },
      ]);
    });

    it('asks for five places in two turns of at most three, and answers for all five', () => {
      const turns = converse('weather in Oslo, Bergen, Paris, Rome and Madrid', (call) => ({
        place: { name: call.arguments.location },
      }));
      expect(turns.map((turn) => (turn.kind === 'tool_calls' ? turn.calls.length : 'answer'))).toEqual([
        3,
        2,
        'answer',
      ]);
      for (const city of ['Oslo', 'Bergen', 'Paris', 'Rome', 'Madrid']) {
        expect(textOf(turns.at(-1) ?? NO_TURN)).toContain(`location "${city}"`);
      }
    });

    it('refuses a list too long to answer whole, rather than answering for its start', () => {
      const text = textOf(ask('weather in Oslo, Bergen, Paris, Rome, Madrid, Lima and Cairo'));
      expect(text).toContain('names 7 values for location');
      expect(text).toContain('at most 6');
    });

    it('completes every task a list of ids names, not only the first', () => {
      expect(callsOf(ask('complete tasks 3 and 4'))).toEqual([
        { name: 'complete_task', arguments: { id: 3 } },
        { name: 'complete_task', arguments: { id: 4 } },
      ]);
      expect(callsOf(ask('delete #5, #6 and #7'))).toEqual(
        [5, 6, 7].map((id) => ({ name: 'delete_task', arguments: { id } })),
      );
    });

    it('asks for the id when a change lacks one, instead of making a different change', () => {
      // "delete task "buy milk"" once became add_task("buy milk"): the runner-up filled its title.
      const text = textOf(ask('delete task "buy milk"'));
      expect(text).toContain('I would use delete_task');
      expect(text).toContain('id');
      expect(textOf(ask('complete the task "Call mom"'))).toContain('I would use complete_task');
    });

    it('keeps a country after a comma with its city instead of making it a second place', () => {
      expect(callsOf(ask('weather in Bergen, Norway'))).toEqual([
        { name: 'get_weather', arguments: { location: 'Bergen, Norway' } },
      ]);
    });
  });

  describe('on an unrelated tool set', () => {
    it('fills origin and destination from "from" and "to"', () => {
      expect(callsOf(ask('Find me flights from Oslo to New York', TRAVEL_TOOLS))).toEqual([
        { name: 'searchFlights', arguments: { origin: 'Oslo', destination: 'New York' } },
      ]);
    });

    it('reads a boolean from the words of its name, and a negation', () => {
      expect(
        callsOf(ask('search nonstop flights from Oslo to Rome', TRAVEL_TOOLS))[0]?.arguments.nonstop,
      ).toBe(true);
      const without = callsOf(ask('flights from Oslo to Rome, not nonstop', TRAVEL_TOOLS));
      expect(without[0]?.arguments.nonstop).toBe(false);
    });

    it('fills an amount and two enums, each from its own preposition', () => {
      expect(callsOf(ask('Convert 100 USD to EUR', TRAVEL_TOOLS))).toEqual([
        { name: 'convert_currency', arguments: { amount: 100, from: 'USD', to: 'EUR' } },
      ]);
      expect(callsOf(ask('convert to JPY from NOK: 2500', TRAVEL_TOOLS))).toEqual([
        { name: 'convert_currency', arguments: { amount: 2500, from: 'NOK', to: 'JPY' } },
      ]);
    });

    it('does not reach for a workshop tool it was not offered', () => {
      const text = textOf(ask("What's the weather in Oslo?", TRAVEL_TOOLS));
      expect(text).toContain('searchFlights');
      expect(text).toContain('convert_currency');
      expect(text).not.toContain('get_weather');
    });
  });

  describe('when a required value is missing', () => {
    it('asks for it instead of calling a lesser tool', () => {
      const text = textOf(ask('add a task'));
      expect(text).toContain('add_task');
      expect(text).toContain('title');
      expect(text.endsWith(DEMO_LABEL)).toBe(true);
    });

    it('says which place it could not turn into a time zone', () => {
      const text = textOf(ask('What time is it in Bergen?'));
      expect(text).toContain('timezone');
      expect(text).toContain('"Bergen"');
    });

    it('asks for the currency when the enum value is not in the message', () => {
      expect(textOf(ask('convert 100 dollars', TRAVEL_TOOLS))).toContain('from');
    });
  });

  describe('after tool results', () => {
    it('quotes the values it received, headline keys first', () => {
      const result = {
        place: {
          name: 'Oslo',
          country: 'Norway',
          latitude: 59.91,
          longitude: 10.75,
          timezone: 'Europe/Oslo',
        },
        current: { temperatureC: 4.2, humidityPercent: 81, weatherCode: 61, conditions: 'Light rain' },
        forecast: [{ date: '2026-07-28', minC: 2, maxC: 7 }],
        source: 'offline-dataset',
      };
      const text = textOf(
        planTurn({
          messages: afterCall('weather in Oslo', 'get_weather', { location: 'Oslo' }, result),
          tools: WORKSHOP_TOOLS,
        }),
      );
      expect(text).toMatch(
        /^Here is what get_weather returned for location "Oslo": name "Oslo", conditions "Light rain"/,
      );
      expect(text).toContain('temperatureC 4.2');
      expect(text).toContain('humidityPercent 81');
      expect(text).not.toContain('latitude');
      expect(text.endsWith(DEMO_LABEL)).toBe(true);
    });

    it('summarises a list by its count and the names of its first entries', () => {
      const result = {
        status: 'all',
        items: [
          { id: 1, title: 'Buy milk', done: false },
          { id: 2, title: 'Call mom', done: true },
        ],
        count: 2,
      };
      const text = textOf(
        planTurn({ messages: afterCall('list tasks', 'list_tasks', {}, result), tools: WORKSHOP_TOOLS }),
      );
      expect(text).toContain('count 2');
      expect(text).toContain('items: 2 entries ("Buy milk", "Call mom")');
    });

    it('says the tool failed and quotes the error', () => {
      const error = { error: 'No task with id 9. Call list_tasks to see the ids.' };
      const text = textOf(
        planTurn({
          messages: afterCall('done #9', 'complete_task', { id: 9 }, error),
          tools: WORKSHOP_TOOLS,
        }),
      );
      expect(text).toBe(
        'complete_task for id 9 failed: “No task with id 9. Call list_tasks to see the ids.”. (offline demo model)',
      );
    });

    it('reads an MCP-shaped error result and plain text results', () => {
      const mcpError = {
        isError: true,
        content: [{ type: 'text', text: 'Upstream weather service is down.' }],
      };
      const failed = textOf(
        planTurn({
          messages: afterCall('x', 'get_weather', { location: 'Oslo' }, mcpError),
          tools: WORKSHOP_TOOLS,
        }),
      );
      expect(failed).toContain('failed: “Upstream weather service is down.”');
      const plain = textOf(
        planTurn({
          messages: afterCall('x', 'calculate', { expression: '1+1' }, '1 + 1 = 2'),
          tools: WORKSHOP_TOOLS,
        }),
      );
      expect(plain).toContain('calculate for expression "1+1" said: “1 + 1 = 2”');
    });

    it('describes every result of a round with several calls', () => {
      const messages: PlannerMessage[] = [
        { role: 'user', content: 'weather in Oslo and Bergen' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'a',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Oslo"}' },
            },
            {
              id: 'b',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Bergen"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'a', content: '{"current":{"temperatureC":4}}' },
        {
          role: 'tool',
          tool_call_id: 'b',
          content: [{ type: 'text', text: '{"current":{"temperatureC":9}}' }],
        },
      ];
      const text = textOf(planTurn({ messages, tools: WORKSHOP_TOOLS }));
      expect(text).toContain('for location "Oslo": temperatureC 4');
      expect(text).toContain('for location "Bergen": temperatureC 9');
    });
  });

  describe('requests whose steps depend on each other', () => {
    it('refuses a request of more steps than one question may take, instead of doing the first few', () => {
      const groceries = ['milk', 'eggs', 'bread', 'tea', 'rice', 'salt'];
      const six = groceries.map((item) => `add a task to buy ${item}`).join(', then ');
      const text = textOf(ask(six));
      expect(text).toContain('needs 6 steps');
      expect(text).toContain('at most 5');
      const five = groceries
        .slice(0, 5)
        .map((item) => `add a task to buy ${item}`)
        .join(', then ');
      expect(callsOf(ask(five))).toEqual([{ name: 'add_task', arguments: { title: 'buy milk' } }]);
    });

    it('calls one step per turn for "X then Y", waiting for each result, then answers about both', () => {
      const turns = converse('add a task to buy milk then list my tasks', taskResults());
      expect(turns.map(summary)).toEqual([
        [{ name: 'add_task', arguments: { title: 'buy milk' } }],
        [{ name: 'list_tasks', arguments: {} }],
        'answer',
      ]);
      const answer = textOf(turns.at(-1) ?? NO_TURN);
      expect(answer).toContain('add_task returned for title "buy milk"');
      expect(answer).toContain('items: 1 entry ("buy milk")');
    });

    it.each([
      'add a task to buy milk then list my tasks',
      'Add a task to buy milk and then list my tasks.',
      'add a task to buy milk, then show my tasks',
      'add a task to buy milk. Then list my tasks',
      'Add a task to buy milk, and after that list my tasks',
      'add a task to buy milk; after that, list my tasks',
      'Add a task to buy milk. Afterwards, list my tasks',
      "add a task to buy milk and once that's done list my tasks",
      'First add a task to buy milk, next list my tasks',
      'add a task to buy milk and finally list my tasks',
    ])('reads %j as two steps in order', (question) => {
      expect(converse(question, taskResults()).map(summary)).toEqual([
        [{ name: 'add_task', arguments: { title: 'buy milk' } }],
        [{ name: 'list_tasks', arguments: {} }],
        'answer',
      ]);
    });

    it('runs "X, then Y, then Z" as three turns in that order', () => {
      const turns = converse(
        'add a task to buy milk, then add a task to call mom, then list my open tasks',
        taskResults(),
      );
      expect(turns.map(summary)).toEqual([
        [{ name: 'add_task', arguments: { title: 'buy milk' } }],
        [{ name: 'add_task', arguments: { title: 'call mom' } }],
        [{ name: 'list_tasks', arguments: { status: 'open' } }],
        'answer',
      ]);
      expect(textOf(turns.at(-1) ?? NO_TURN)).toContain('items: 2 entries ("buy milk", "call mom")');
    });

    it('repeats a step that equals an earlier one: list, add, list again', () => {
      expect(
        converse('list my tasks, then add a task to buy milk, then list my tasks', taskResults()).map(
          summary,
        ),
      ).toEqual([
        [{ name: 'list_tasks', arguments: {} }],
        [{ name: 'add_task', arguments: { title: 'buy milk' } }],
        [{ name: 'list_tasks', arguments: {} }],
        'answer',
      ]);
    });

    it('reads a plain "and" after a change to the same kind of thing as "then"', () => {
      expect(converse('add a task to buy milk and list my tasks', taskResults()).map(summary)).toEqual([
        [{ name: 'add_task', arguments: { title: 'buy milk' } }],
        [{ name: 'list_tasks', arguments: {} }],
        'answer',
      ]);
    });

    it.each([
      ['weather in Bergen and Oslo', ['get_weather', 'get_weather']],
      ["What's the weather in Bergen and what time is it in Tokyo?", ['get_weather', 'get_time']],
      ['weather in Bergen and the time in Tokyo', ['get_weather', 'get_time']],
      ['add a task to buy milk and tell me the weather in Oslo', ['add_task', 'get_weather']],
    ])('keeps independent calls in one turn: %j', (question, names) => {
      expect(callsOf(ask(question)).map((call) => call.name)).toEqual(names);
    });

    it('retries a failed step once with the suggested value before moving on', () => {
      const results = (call: PlannedCall) =>
        call.arguments.location === 'Osloo'
          ? { error: 'Unknown place "Osloo". Did you mean "Oslo"?' }
          : call.name === 'get_weather'
            ? { current: { temperatureC: 4 } }
            : { timezone: 'Asia/Tokyo', time: '09:00' };
      expect(converse('weather in Osloo, then the time in Tokyo', results).map(summary)).toEqual([
        [{ name: 'get_weather', arguments: { location: 'Osloo' } }],
        [{ name: 'get_weather', arguments: { location: 'Oslo' } }],
        [{ name: 'get_time', arguments: { timezone: 'Asia/Tokyo' } }],
        'answer',
      ]);
    });

    it('goes on after a failed step, and does not call the next step of the same tool a retry', () => {
      const results = (call: PlannedCall) =>
        call.arguments.title === 'buy milk' ? { error: 'The task list is full.' } : { task: { id: 2 } };
      const turns = converse('add a task to buy milk, then add a task to call mom', results);
      expect(turns.map(summary)).toEqual([
        [{ name: 'add_task', arguments: { title: 'buy milk' } }],
        [{ name: 'add_task', arguments: { title: 'call mom' } }],
        'answer',
      ]);
      const text = textOf(turns.at(-1) ?? NO_TURN);
      expect(text).toContain('add_task for title "buy milk" failed: “The task list is full.”');
      expect(text).not.toContain('tried again');
    });

    it('asks for a missing value before starting a sequence', () => {
      const text = textOf(ask('add a task, then list my tasks'));
      expect(text).toContain('add_task');
      expect(text).toContain('title');
    });
  });

  describe('a question about a particular day', () => {
    const MONDAY = new Date('2026-11-23T12:00:00Z');
    const askOn = (question: string, now = MONDAY) =>
      planTurn({ messages: [{ role: 'user', content: question }], tools: WORKSHOP_TOOLS, now });

    it.each([
      ['Will I need an umbrella in London on Friday?', 5],
      ['weather in London this Saturday', 6],
      ['Forecast for Oslo on Sunday', 7],
      ['weather in Oslo tomorrow', 2],
      ['weather in Oslo the day after tomorrow', 3],
      ['Next Monday in London: will it rain?', 7],
    ])('asks %j for enough days (%i)', (question, days) => {
      expect(callsOf(askOn(question))[0]?.arguments.days).toBe(days);
    });

    it('leaves the number of days to the tool when no day is named', () => {
      expect(callsOf(askOn('weather in London'))[0]?.arguments).toEqual({ location: 'London' });
    });

    it('does not read a weekday as a place', () => {
      expect(callsOf(askOn('weather for Friday in London'))).toEqual([
        { name: 'get_weather', arguments: { location: 'London', days: 5 } },
      ]);
    });

    it('answers about the day asked for and whether to take an umbrella', () => {
      const messages = afterCall(
        'Will I need an umbrella in London on Friday?',
        'get_weather',
        { location: 'London', days: 5 },
        londonWeek(),
      );
      const text = textOf(planTurn({ messages, tools: WORKSHOP_TOOLS, now: MONDAY }));
      expect(text).toContain('Friday (2026-11-27): 6.1 to 9.0 °C, precipitation 4.2 mm, Light rain');
      expect(text).toMatch(/rain is expected.*umbrella/i);
      expect(text).not.toContain('2026-11-24');
    });

    it('says when no rain is expected on the day asked for', () => {
      const messages = afterCall(
        'Do I need an umbrella in London tomorrow?',
        'get_weather',
        { location: 'London', days: 2 },
        londonWeek(),
      );
      const text = textOf(planTurn({ messages, tools: WORKSHOP_TOOLS, now: MONDAY }));
      expect(text).toContain('Tuesday (2026-11-24): 3.0 to 10.4 °C, precipitation 0.0 mm, Partly cloudy');
      expect(text).toMatch(/no rain is expected/i);
    });

    it('says so when the day asked for is beyond the forecast the tool can give', () => {
      const messages = afterCall(
        'Will it rain in London next Monday?',
        'get_weather',
        { location: 'London', days: 7 },
        londonWeek(),
      );
      const text = textOf(planTurn({ messages, tools: WORKSHOP_TOOLS, now: MONDAY }));
      expect(text).toContain('Monday (2026-11-30)');
      expect(text).toMatch(/beyond/);
      expect(text).toContain('2026-11-29');
    });
  });

  describe('recovery from a failed call', () => {
    const suggestion = {
      error: 'Unknown place "Osloo". Did you mean "Oslo"? Use list_cities to see every supported city.',
    };

    it('retries once with the value the error suggested, keeping the other arguments', () => {
      const messages = afterCall(
        'weather in Osloo for 2 days',
        'get_weather',
        { location: 'Osloo', days: 2 },
        suggestion,
      );
      expect(callsOf(planTurn({ messages, tools: WORKSHOP_TOOLS }))).toEqual([
        { name: 'get_weather', arguments: { location: 'Oslo', days: 2 } },
      ]);
    });

    it('does not retry a second time, and says what happened', () => {
      const messages: PlannerMessage[] = [
        ...afterCall('weather in Osloo', 'get_weather', { location: 'Osloo' }, suggestion),
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_2',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Oslo"}' },
            },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'call_2',
          content: JSON.stringify({ error: 'Unknown place "Oslo". Try "Osloo".' }),
        },
      ];
      const text = textOf(planTurn({ messages, tools: WORKSHOP_TOOLS }));
      expect(text).toContain('get_weather for location "Osloo" failed (“Unknown place "Osloo"');
      expect(text).toContain('so I tried again with the value it suggested');
      expect(text).toContain('get_weather for location "Oslo" failed: “Unknown place "Oslo". Try "Osloo".”');
    });

    it('does not retry when the suggestion is the value it already used', () => {
      const same = { error: 'Service busy. Try "Oslo" again later.' };
      const messages = afterCall('weather in Oslo', 'get_weather', { location: 'Oslo' }, same);
      expect(textOf(planTurn({ messages, tools: WORKSHOP_TOOLS }))).toContain('failed');
    });

    it('does not retry a tool that is no longer offered', () => {
      const messages = afterCall('weather in Osloo', 'get_weather', { location: 'Osloo' }, suggestion);
      expect(planTurn({ messages, tools: TRAVEL_TOOLS }).kind).toBe('answer');
    });
  });

  describe('help', () => {
    it('explains that it is a scripted stand-in when no tools are offered', () => {
      const text = textOf(ask('What is the weather in Oslo?', []));
      expect(text).toContain('offline demo model');
      expect(text).toContain('not a language model');
      expect(text).toContain('No tools were offered');
    });

    it('lists the offered tools when nothing matches', () => {
      const text = textOf(ask('Tell me a joke about penguins'));
      expect(text).toContain('“Tell me a joke about penguins”');
      expect(text).toContain('get_weather (Get the current weather');
      expect(text).toContain('add_task');
      expect(text.endsWith(DEMO_LABEL)).toBe(true);
    });

    it('answers a conversation with no user message', () => {
      expect(
        textOf(planTurn({ messages: [{ role: 'system', content: 'Be brief.' }], tools: WORKSHOP_TOOLS })),
      ).toContain('offline demo model');
    });
  });

  describe('with hostile input', () => {
    it('reads only the start of a huge message', () => {
      const filler = 'la la la, '.repeat(40_000);
      // The same question at the end, past what it reads, would add a second call.
      const huge = `weather in Oslo ${filler} and what is 6 * 7`;
      expect(MAX_PLANNED_CHARS).toBeLessThan(huge.length);
      expect(callsOf(ask('weather in Oslo and what is 6 * 7')).map((call) => call.name)).toEqual([
        'get_weather',
        'calculate',
      ]);
      expect(callsOf(ask(huge)).map((call) => call.name)).toEqual(['get_weather']);
      // Names by the thousand, which its regexes match: reading them all would not end within the test's timeout.
      const hostile = `weather in Oslo ${'In Aa Bb, Cc and Dd or '.repeat(40_000)}`;
      expect(callsOf(ask(hostile))[0]?.name).toBe('get_weather');
    });

    it('survives a deeply nested or huge tool result', () => {
      const deep = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
      expect(
        textOf(planTurn({ messages: afterCall('x', 'calculate', {}, deep), tools: WORKSHOP_TOOLS })),
      ).toContain(DEMO_LABEL);
      const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])));
      const text = textOf(
        planTurn({ messages: afterCall('x', 'calculate', {}, wide), tools: WORKSHOP_TOOLS }),
      );
      expect(text.length).toBeLessThan(1_000);
    });

    it('ignores content that is not text', () => {
      const messages: PlannerMessage[] = [{ role: 'user', content: [{ type: 'image_url' }, 42, null] }];
      expect(planTurn({ messages, tools: WORKSHOP_TOOLS }).kind).toBe('answer');
    });
  });

  it("accepts the openai client's own message type", () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'weather in Oslo' }] },
    ];
    expect(callsOf(planTurn({ messages, tools: WORKSHOP_TOOLS }))[0]?.arguments).toEqual({
      location: 'Oslo',
    });
  });
});
