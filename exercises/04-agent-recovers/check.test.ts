/**
 * The check for exercise 04: `../agent.ts` with your `toolMessage`, the real `openai` client talking
 * to the scripted OpenAI server, and the workshop's real `get_time` tool over the official MCP client.
 */
import { tools } from '@mcp-workshop/mcp-server';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ChatRequestBody,
  type ScriptEntry,
  type ScriptedOpenAI,
  startScriptedOpenAI,
  toolMessages,
} from '../../services/agent/src/test-support/scripted-openai.js';
import { type Connected, connectTools } from '../test-support/mcp.js';
import { loadParticipant } from '../test-support/participant.js';
import { runAgent } from './agent.js';

type Participant = typeof import('./starter/tool-message.js');

const ANSWER = 'It is 14:00 in Oslo.';
const MAX_ROUNDS = 3;

/** The last tool message the model was sent, or '' when there is none. */
const lastToolMessage = (body: ChatRequestBody) => toolMessages(body).at(-1)?.content ?? '';

/** Like a model would: reads the failure, and retries with the zone the error message suggests. */
const retryIfToldHow: ScriptEntry = (body) => {
  const message = lastToolMessage(body);
  return /error|fail/i.test(message) && message.includes('Europe/Oslo')
    ? { toolCalls: [{ name: 'get_time', arguments: { timezone: 'Europe/Oslo' } }] }
    : { text: 'I could not tell what went wrong.' };
};

describe('exercise 04: the agent recovers from an isError result', () => {
  let model: ScriptedOpenAI;
  let conn: Connected;
  let toolMessage: Participant['toolMessage'];

  beforeEach(async () => {
    ({ toolMessage } = await loadParticipant<Participant>('04-agent-recovers', 'tool-message.ts'));
    const getTime = tools.find((tool) => tool.name === 'get_time');
    if (!getTime) throw new Error('the workshop server has no get_time tool');
    conn = await connectTools(getTime);
  });
  afterEach(async () => {
    await conn?.close();
    await model?.close();
  });

  const ask = async (script: ScriptEntry[], fallback?: ScriptEntry) => {
    model = await startScriptedOpenAI({ script, fallback });
    const openai = new OpenAI({ baseURL: model.baseUrl, apiKey: 'not-needed', maxRetries: 0 });
    return runAgent({
      question: 'What time is it in Oslo?',
      openai,
      model: 'scripted',
      mcp: conn.client,
      toolMessage,
      maxRounds: MAX_ROUNDS,
    });
  };

  const wrongZoneFirst: ScriptEntry[] = [
    { toolCalls: [{ name: 'get_time', arguments: { timezone: 'Oslo' } }] },
    retryIfToldHow,
    { text: ANSWER },
  ];

  it('a failed tool call goes back to the model instead of stopping the agent', async () => {
    const thrown = await ask(wrongZoneFirst).then(
      () => undefined,
      (error: unknown) => String(error),
    );
    expect(thrown, 'runAgent threw, so toolMessage must not throw on an isError result').toBeUndefined();
    expect(model.bodies().length, 'the model should be asked again after the failed call').toBeGreaterThan(1);
  });

  it("the tool message says the call failed, in the tool's own words", async () => {
    await ask(wrongZoneFirst).catch(() => undefined);
    const second = model.bodies()[1];
    expect(second, 'the model was never asked again after the failed call').toBeDefined();
    const message = lastToolMessage(second as ChatRequestBody);
    expect(message, 'the message should say plainly that the call failed (e.g. {"error": ...})').toMatch(
      /error|fail/i,
    );
    expect(message, "the message should carry the tool's text, which names a valid zone").toContain(
      'not an IANA time zone',
    );
  });

  it('the model fixes its arguments, and the agent answers', async () => {
    const result = await ask(wrongZoneFirst).catch((error: unknown) => {
      throw new Error(`runAgent threw: ${String(error)}`);
    });
    expect(result.answer, 'the scripted model could not tell what went wrong from the tool message').toBe(
      ANSWER,
    );
    expect(result.stoppedBecause, 'the agent should stop because the model answered').toBe('answer');
    const third = model.bodies()[2] as ChatRequestBody;
    expect(JSON.parse(lastToolMessage(third)), 'the retry should succeed').toMatchObject({
      time: '14:00:00',
    });
  });

  it('a successful result reaches the model as its structuredContent', async () => {
    const result = await ask([
      { toolCalls: [{ name: 'get_time', arguments: { timezone: 'Europe/Oslo' } }] },
      { text: ANSWER },
    ]);
    expect(result.answer, 'the agent should answer after one successful call').toBe(ANSWER);
    const message = lastToolMessage(model.bodies()[1] as ChatRequestBody);
    expect(JSON.parse(message), 'the tool message should be the structuredContent as JSON').toMatchObject({
      timezone: 'Europe/Oslo',
      time: '14:00:00',
    });
  });

  it('a model that never gets it right is stopped after maxRounds, with an answer that says so', async () => {
    const stubborn: ScriptEntry = { toolCalls: [{ name: 'get_time', arguments: { timezone: 'Nowhere' } }] };
    const result = await ask([], stubborn).catch((error: unknown) => {
      throw new Error(`runAgent threw: ${String(error)}`);
    });
    expect(result.stoppedBecause, 'the agent should stop because of maxRounds').toBe('max_rounds');
    expect(model.bodies().length, `the model should be asked ${MAX_ROUNDS} times, no more`).toBe(MAX_ROUNDS);
  });
});
