/**
 * Tests for `format.ts`: the terminal trace shows, for each tool call, the tool, its arguments,
 * duration, `isError`, what the server returned (`structuredContent` versus text) and exactly what
 * went to the model; `turnAsJson` carries the same fields for `--json`.
 */
import { describe, expect, it } from 'vitest';
import {
  CHAT_PAGE,
  formatHeader,
  formatTask,
  formatTaskUpdate,
  formatToolCall,
  formatTurn,
  turnAsJson,
} from './format.js';
import { ONE_SHOT_NOT_ASKED } from './input.js';
import type { ModelDescription } from './llm/provider.js';
import type { ToolCallTrace, TurnResult } from './trace.js';
import type { ServerInfo } from './types.js';

const model: ModelDescription = {
  kind: 'custom',
  model: 'scripted',
  baseUrl: 'http://127.0.0.1:9/v1',
  api: 'chat',
  label: 'scripted at http://127.0.0.1:9/v1',
};

const servers: ServerInfo[] = [
  {
    name: 'workshop',
    target: 'http://127.0.0.1:3000/mcp',
    protocolVersion: '2026-07-28',
    era: 'modern',
    implementation: { name: 'mcp-workshop-server', version: '0.1.0' },
  },
];

const structured: ToolCallTrace = {
  id: 'call_1',
  round: 1,
  functionName: 'get_weather',
  server: 'workshop',
  tool: 'get_weather',
  arguments: { location: 'Oslo', days: 1 },
  durationMs: 42,
  isError: false,
  result: {
    isError: false,
    structuredContent: { temperatureC: 4 },
    text: ['{"temperatureC":4}', 'Oslo: 4 °C, cloudy.'],
    otherContent: ['[image: image/png, 70 B]'],
  },
  sentToModel: '{"structuredContent":{"temperatureC":4},"text":"Oslo: 4 °C, cloudy."}',
  sentAs: 'structured+text',
  truncated: false,
  progress: [{ progress: 1, total: 2, message: 'half way', atMs: 10 }],
  logs: [{ level: 'info', data: 'fetched', atMs: 12 }],
  inputs: [],
};

const textOnly: ToolCallTrace = {
  ...structured,
  id: 'call_2',
  round: 2,
  functionName: 'weather_forecast_daily',
  tool: 'weather.forecast.daily',
  arguments: {},
  durationMs: 7,
  isError: true,
  result: { isError: true, text: ['Unknown city "Osloo".'], otherContent: [] },
  sentToModel: '{"error":"Unknown city \\"Osloo\\"."}',
  sentAs: 'error',
  progress: [],
  logs: [],
};

const refused: ToolCallTrace = {
  id: 'call_3',
  round: 2,
  functionName: 'nope',
  arguments: '{bad',
  durationMs: 0,
  isError: true,
  problem: { kind: 'unknown_function', message: 'There is no function named "nope".' },
  sentToModel: '{"error":"There is no function named \\"nope\\"."}',
  sentAs: 'error',
  truncated: false,
  progress: [],
  logs: [],
  inputs: [],
};

const turn: TurnResult = {
  answer: 'It is 4 °C in Oslo.',
  conversationId: 'conv-1',
  toolCalls: [structured, textOnly, refused],
  rounds: 2,
  stoppedBecause: 'answer',
  serverLogs: [],
};

describe('formatToolCall', () => {
  it('shows the tool, arguments, duration, isError, structuredContent, text and what the model got', () => {
    const text = formatToolCall(structured, 0);
    expect(text).toContain('tool call 1 (round 1): get_weather → workshop/get_weather');
    expect(text).toContain('42 ms');
    expect(text).toMatch(/\bok$/m);
    expect(text).toContain('arguments:         {"location":"Oslo","days":1}');
    expect(text).toContain('isError:           false');
    expect(text).toContain('structuredContent: {"temperatureC":4}');
    expect(text).toContain('content[text 1]:   {"temperatureC":4}');
    expect(text).toContain('content[text 2]:   Oslo: 4 °C, cloudy.');
    expect(text).toContain('content[other]:    [image: image/png, 70 B]');
    expect(text).toContain('progress:          1/2 half way');
    expect(text).toContain('log (info): "fetched"');
    expect(text).toContain(`sent to model (structured+text): ${structured.sentToModel}`);
  });

  it('says when there was no structuredContent and marks an isError result', () => {
    const text = formatToolCall(textOnly, 1);
    expect(text).toContain('tool call 2 (round 2): weather_forecast_daily → workshop/weather.forecast.daily');
    expect(text).toMatch(/ERROR$/m);
    expect(text).toContain('isError:           true');
    expect(text).toContain('structuredContent: (none)');
    expect(text).toContain('content[text 1]:   Unknown city "Osloo".');
    expect(text).toContain('sent to model (error): {"error":"Unknown city \\"Osloo\\"."}');
  });

  it('names the round each call ran in, so calls made together share one', () => {
    const lines = formatTurn(turn)
      .split('\n')
      .filter((line) => line.startsWith('┌─'));
    expect(lines.map((line) => line.match(/^┌─ tool call (\d+) \(round (\d+)\)/)?.slice(1))).toEqual([
      ['1', '1'],
      ['2', '2'],
      ['3', '2'],
    ]);
  });

  it('says a request for input was not put to anyone, and that the tool heard "decline" for them', () => {
    const unasked: ToolCallTrace = {
      ...textOnly,
      tool: 'delete_task',
      functionName: 'delete_task',
      result: { isError: true, text: ['Not deleted: the user declined.'], otherContent: [] },
      inputs: [{ message: 'Delete task 2?', action: 'decline', notAsked: ONE_SHOT_NOT_ASKED, atMs: 5 }],
    };
    const text = formatToolCall(unasked, 0);
    expect(text).toContain(
      "│ input requested by delete_task: not asked (one-shot `ask` can't ask you to confirm; use `pnpm chat` or the web page) · question: Delete task 2?",
    );
    expect(text).toMatch(/nobody was asked/);
  });

  it('names the view of a tool that has one, and where to see it drawn, right after the arguments', () => {
    const lines = formatToolCall({ ...structured, view: { uri: 'ui://weather/forecast' } }, 0).split('\n');
    const at = lines.findIndex((line) => line.startsWith('│ view:'));
    expect(lines[at]).toBe(
      `│ view:              ui://weather/forecast, drawn under this call on the chat page (${CHAT_PAGE})`,
    );
    expect(lines[at - 1]).toMatch(/^│ arguments:/);
    expect(formatToolCall(structured, 0)).not.toContain('│ view:');
  });

  it('says what the person answered when they were asked', () => {
    const asked: ToolCallTrace = {
      ...structured,
      inputs: [{ message: 'Your name?', action: 'accept', atMs: 5 }],
    };
    expect(formatToolCall(asked, 0)).toContain(
      '│ input requested by get_weather: answered "accept" · question: Your name?',
    );
  });

  it('shows the problem of a call that never reached a server', () => {
    const text = formatToolCall(refused, 2);
    expect(text).toContain('nope → (no such tool)');
    expect(text).toContain('problem:           unknown_function: There is no function named "nope".');
    expect(text).toContain('arguments:         "{bad"');
    expect(text).not.toContain('isError:');
  });

  it('keeps each call on its own lines, however long or multi-line the values', () => {
    const long: ToolCallTrace = {
      ...textOnly,
      sentToModel: `line one\nline two ${'x'.repeat(2_000)}`,
      truncated: true,
    };
    const text = formatToolCall(long, 0);
    const sent = text.split('\n').find((line) => line.includes('sent to model'));
    expect(sent).toContain('(error (truncated to the budget))');
    expect(sent).toContain('line one ⏎ line two');
    expect(sent).toMatch(/… \(\d+ chars\)$/);
    expect(sent?.length).toBeLessThan(700);
  });

  it('copes with values JSON cannot show, such as a log notification without data', () => {
    const odd: ToolCallTrace = {
      ...structured,
      arguments: undefined,
      logs: [{ level: 'info', data: undefined, atMs: 1 }],
    };
    const text = formatToolCall(odd, 0);
    expect(text).toContain('arguments:         undefined');
    expect(text).toContain('log (info): undefined');
  });

  it('escapes terminal control sequences a server put in its result', () => {
    const hostile: ToolCallTrace = {
      ...textOnly,
      result: { isError: false, text: ['\u001b[2J\u001b[31mred\rover'], otherContent: [] },
      sentToModel: '\u001b]0;title\u0007',
      progress: [{ progress: 1, message: '\u009b1A', atMs: 1 }],
    };
    const text = formatToolCall(hostile, 0);
    const controls = [...text].filter((character) => {
      const code = character.codePointAt(0) ?? 0;
      return (code < 0x20 && character !== '\n') || (code >= 0x7f && code <= 0x9f);
    });
    expect(controls).toEqual([]);
    expect(text).toContain('content[text 1]:   \\u001b[2J\\u001b[31mred\\u000dover');
    expect(text).toContain('\\u001b]0;title\\u0007');
    expect(text).toContain('progress:          1 \\u009b1A');
  });
});

describe('formatTurn', () => {
  it('lists every call, then the answer', () => {
    const text = formatTurn(turn);
    expect(text.match(/┌─ tool call/g)).toHaveLength(3);
    expect(text.trimEnd().split('\n').at(-1)).toBe('answer: It is 4 °C in Oslo.');
  });

  it('shows a server log no call can claim once, apart from the calls', () => {
    const text = formatTurn({
      ...turn,
      serverLogs: [{ server: 'workshop', level: 'info', logger: 'tasks', data: { message: 'hi' }, atMs: 3 }],
    });
    const lines = text.split('\n');
    expect(lines.filter((line) => line.includes('"message":"hi"'))).toEqual([
      'server log (not tied to a call) from workshop tasks (info): {"message":"hi"}',
    ]);
    expect(lines.at(-1)).toBe('answer: It is 4 °C in Oslo.');
  });

  it('says when the turn stopped at the round limit', () => {
    expect(formatTurn({ ...turn, stoppedBecause: 'max_rounds' })).toContain(
      'answer  (stopped at the round limit):',
    );
  });
});

describe('formatHeader', () => {
  it('names the model, its endpoint and each server with its protocol', () => {
    const text = formatHeader(model, servers);
    expect(text).toContain('scripted at http://127.0.0.1:9/v1');
    expect(text).toContain('chat API at http://127.0.0.1:9/v1');
    expect(text).toContain('(protocol 2026-07-28, modern era)');
  });

  it('starts with the server that answered: its own name, version and URL', () => {
    const [first, second] = formatHeader(model, servers).split('\n');
    expect(first).toBe(
      'mcp:    workshop → mcp-workshop-server 0.1.0 at http://127.0.0.1:3000/mcp (protocol 2026-07-28, modern era)',
    );
    expect(second).toMatch(/^model: /);
  });

  it('says so when a server gave no name', () => {
    const [first] = formatHeader(model, [{ ...servers[0], implementation: undefined } as ServerInfo]).split(
      '\n',
    );
    expect(first).toContain('workshop → (a server that gave no name) at http://127.0.0.1:3000/mcp');
  });
});

describe('turnAsJson', () => {
  it('is JSON with the answer and every tool call with its fields', () => {
    const parsed = JSON.parse(turnAsJson(turn, model, servers)) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      answer: 'It is 4 °C in Oslo.',
      conversationId: 'conv-1',
      stoppedBecause: 'answer',
      model,
      servers,
    });
    const calls = parsed.toolCalls as Array<Record<string, unknown>>;
    expect(calls).toHaveLength(3);
    expect(calls.map((call) => call.round)).toEqual([1, 2, 2]);
    expect(parsed.servers).toEqual([
      expect.objectContaining({ implementation: { name: 'mcp-workshop-server', version: '0.1.0' } }),
    ]);
    expect(calls[0]).toMatchObject({
      functionName: 'get_weather',
      tool: 'get_weather',
      arguments: { location: 'Oslo', days: 1 },
      durationMs: 42,
      isError: false,
      result: { structuredContent: { temperatureC: 4 }, text: ['{"temperatureC":4}', 'Oslo: 4 °C, cloudy.'] },
      sentToModel: structured.sentToModel,
      sentAs: 'structured+text',
    });
    expect(calls[2]).toMatchObject({ isError: true, problem: { kind: 'unknown_function' } });
  });

  it('keeps long values whole, unlike the terminal view', () => {
    const long = 'y'.repeat(5_000);
    const parsed = JSON.parse(
      turnAsJson({ ...turn, toolCalls: [{ ...refused, sentToModel: long }] }, model, servers),
    ) as {
      toolCalls: Array<{ sentToModel: string }>;
    };
    expect(parsed.toolCalls[0]?.sentToModel).toBe(long);
  });
});

describe('formatTask', () => {
  const task = {
    id: 'Qm9vb3Rhc2staWQtb25lLXR3bw',
    statuses: ['working' as const, 'completed' as const],
    elapsedMs: 2_130,
    polls: 4,
  };

  it('shows a short id, the statuses seen and how long, under the call', () => {
    expect(formatTask(task)).toEqual([
      'task:              Qm9vb3… working → completed in 2.1 s (4 tasks/get)',
    ]);
    const block = formatToolCall({ ...structured, task }, 0);
    expect(block).toContain('│ task:              Qm9vb3… working → completed in 2.1 s');
    // The whole id (bearer-grade) stays out of the terminal; --json has it.
    expect(block).not.toContain(task.id);
    expect(
      JSON.parse(turnAsJson({ ...turn, toolCalls: [{ ...structured, task }] }, model, servers)),
    ).toMatchObject({
      toolCalls: [{ task: { id: task.id, statuses: ['working', 'completed'], elapsedMs: 2_130 } }],
    });
  });

  it('says why the agent cancelled a task it stopped following, and its last status message', () => {
    const stopped = {
      ...task,
      statuses: ['working' as const],
      statusMessage: 'Section 2 of 5',
      cancel: { reason: 'aborted' as const, acknowledged: true },
    };
    expect(formatTask(stopped)).toEqual([
      'task:              Qm9vb3… working for 2.1 s (4 tasks/get)',
      'task status:       Section 2 of 5',
      'task cancelled:    tasks/cancel sent because the question was cancelled; the server acknowledged it',
    ]);
    expect(formatTaskUpdate(stopped)).toBe('task Qm9vb3… working (2.1 s) · Section 2 of 5');
  });
});
