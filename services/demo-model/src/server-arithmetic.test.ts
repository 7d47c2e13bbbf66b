/**
 * End-to-end tests for arithmetic through the demo model's HTTP API, with the real `openai`
 * client on a loopback port: Chat Completions and Responses pass a question to the calculator
 * whole, or refuse it in words; neither ever sends the part it understood as if it were all.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemoModel, startDemoModel } from './start.js';
import { DEMO_LABEL } from './types.js';

const calculateParameters = {
  type: 'object',
  properties: {
    expression: { type: 'string', description: 'One arithmetic expression, e.g. "(2 + 3) * 4".' },
  },
  required: ['expression'],
};
const DESCRIPTION =
  'Evaluate an arithmetic expression. Supports + - * / ^, % (modulo; for percentages write / 100), ' +
  'parentheses, sqrt, abs, round(x, digits), min, max and the constants pi and e.';
const CHAT_TOOLS: ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'calculate', description: DESCRIPTION, parameters: calculateParameters },
  },
];
const RESPONSES_TOOLS: FunctionTool[] = [
  {
    type: 'function',
    name: 'calculate',
    description: DESCRIPTION,
    parameters: calculateParameters,
    strict: false,
  },
];
const QUESTION = 'What is sqrt(2) + 10% of 50?';
const EXPRESSION = 'sqrt(2) + (10 / 100 * 50)';
/** What the workshop's calculate returns for EXPRESSION (checked against its mathjs). */
const RESULT = JSON.stringify({
  expression: EXPRESSION,
  result: 6.414213562373095,
  formatted: '6.4142135623731',
});
/** Questions the script can only partly read, with the part it must name. */
const PARTLY_READ = [
  ['What is 10 + 5%?', '5%'],
  ['What is 5 + 3 km?', 'km'],
] as const;

let demo: RunningDemoModel;
let client: OpenAI;

beforeAll(async () => {
  demo = await startDemoModel({ port: 0 });
  client = new OpenAI({ apiKey: 'unused', baseURL: demo.url, maxRetries: 0 });
});

afterAll(async () => {
  await demo.close();
});

describe('arithmetic over Chat Completions', () => {
  it('calls calculate with the whole of sqrt(2) + 10% of 50, then quotes 6.414…', async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: QUESTION }];
    const first = await client.chat.completions.create({ model: 'x', messages, tools: CHAT_TOOLS });
    const assistant = first.choices[0]?.message;
    const call = assistant?.tool_calls?.[0];
    if (!assistant || call?.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(call.function.arguments)).toEqual({ expression: EXPRESSION });
    messages.push(assistant, { role: 'tool', tool_call_id: call.id, content: RESULT });
    const second = await client.chat.completions.create({ model: 'x', messages, tools: CHAT_TOOLS });
    const answer = second.choices[0]?.message.content ?? '';
    expect(answer).toContain('6.4142135623731');
    expect(answer).not.toContain('11.41');
  });

  it.each(PARTLY_READ)('refuses %j in words, with no tool call', async (question, part) => {
    const completion = await client.chat.completions.create({
      model: 'x',
      messages: [{ role: 'user', content: question }],
      tools: CHAT_TOOLS,
    });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('stop');
    expect(choice?.message.tool_calls ?? []).toEqual([]);
    expect(choice?.message.content).toContain("can't turn your message into a calculation");
    expect(choice?.message.content).toContain(`“${part}”`);
    expect(choice?.message.content?.endsWith(DEMO_LABEL)).toBe(true);
  });
});

describe('arithmetic over Responses', () => {
  it('calls calculate with the whole of sqrt(2) + 10% of 50, then quotes 6.414…', async () => {
    const input: ResponseInputItem[] = [{ role: 'user', content: QUESTION }];
    const first = await client.responses.create({ model: 'x', input, tools: RESPONSES_TOOLS });
    const call = first.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('expected a function call');
    expect(JSON.parse(call.arguments)).toEqual({ expression: EXPRESSION });
    input.push(
      { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
      { type: 'function_call_output', call_id: call.call_id, output: RESULT },
    );
    // Streamed, as the agent asks for it.
    const second = await client.responses
      .stream({ model: 'x', input, tools: RESPONSES_TOOLS })
      .finalResponse();
    expect(second.output_text).toContain('6.4142135623731');
    expect(second.output_text).not.toContain('11.41');
  });

  it.each(PARTLY_READ)('refuses %j in words, with no function call', async (question, part) => {
    const response = await client.responses.create({ model: 'x', input: question, tools: RESPONSES_TOOLS });
    expect(response.output.filter((item) => item.type === 'function_call')).toEqual([]);
    expect(response.output_text).toContain("can't turn your message into a calculation");
    expect(response.output_text).toContain(`“${part}”`);
  });
});
