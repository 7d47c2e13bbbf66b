/**
 * Tests for the agent loop (`loop.ts`) with every part real except the model's answers: the hub
 * talks to the minimal MCP server over HTTP, and the scripted OpenAI-compatible server answers
 * through the `openai` client. What exactly goes back for each outcome is `contract.test.ts`.
 */

import { freePort } from '@mcp-workshop/test-infra';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConversationStore } from './conversations.js';
import { formatToolCall, formatTurn } from './format.js';
import {
  ModelAbortedError,
  ModelAuthError,
  ModelResponseError,
  ModelUnreachableError,
} from './llm/errors.js';
import type { ConnectedServer } from './mcp/connect.js';
import { createMcpHub, type QualifiedMcpHub } from './mcp/hub.js';
import {
  CHATTY_TOOLS,
  type FixtureServer,
  type LegacyServer,
  startFixtureServer,
  startLegacyServer,
} from './mcp/test-support/fixture-server.js';
import { silentLogger } from './mcp/test-support/logger.js';
import { connectHub, connectServers, createTestAgent, scriptedModel } from './test-support/harness.js';
import { type MinimalMcpServer, startMinimalMcpServer } from './test-support/minimal-mcp-server.js';
import {
  type ChatRequestBody,
  type ScriptedOpenAI,
  type ScriptStep,
  startScriptedOpenAI,
  toolMessages,
} from './test-support/scripted-openai.js';
import type { ToolCallTrace } from './trace.js';

/** Each of the two concurrent calls sleeps this long on the server. */
const SLOW_CALL_MS = 300;

let minimal: MinimalMcpServer;
let servers: ConnectedServer[];
let hub: QualifiedMcpHub;
let openai: ScriptedOpenAI | undefined;

beforeAll(async () => {
  minimal = await startMinimalMcpServer();
  servers = await connectServers([{ name: 'minimal', url: minimal.url }]);
  hub = createMcpHub(servers, silentLogger());
});
afterAll(async () => {
  await hub?.close();
  await minimal?.close();
});
afterEach(async () => {
  await openai?.close();
  openai = undefined;
});

async function model(options: Parameters<typeof startScriptedOpenAI>[0]) {
  openai = await startScriptedOpenAI(options);
  return { openai, provider: scriptedModel(openai.baseUrl) };
}

describe('createAgent', () => {
  it('stops after maxToolRounds when the model never stops calling tools', async () => {
    const { openai, provider } = await model({
      fallback: { toolCalls: [{ name: 'plain_text', arguments: {} }] },
    });
    const agent = createTestAgent({ hub, model: provider, settings: { maxToolRounds: 3 } });

    const result = await agent.ask('Loop forever.');

    expect(result.stoppedBecause).toBe('max_rounds');
    expect(result.rounds).toBe(3);
    expect(openai.requests).toHaveLength(3);
    expect(result.toolCalls).toHaveLength(3);
    expect(result.answer).toContain('AGENT_MAX_TOOL_ROUNDS');
    // Every round's results reached the model in the next request.
    expect(toolMessages(openai.bodies()[2] as ChatRequestBody)).toHaveLength(2);
  });

  it('answers after one round when the model needs no tool', async () => {
    const { openai, provider } = await model({ script: [{ text: 'Hello there.' }] });
    const result = await createTestAgent({ hub, model: provider }).ask('Hi');
    expect(result).toMatchObject({
      answer: 'Hello there.',
      rounds: 1,
      stoppedBecause: 'answer',
      toolCalls: [],
    });
    expect(openai.requests).toHaveLength(1);
  });

  it('runs the tool calls of one turn concurrently', async () => {
    const { provider } = await model({
      script: [
        {
          toolCalls: [
            { name: 'sleep', arguments: { ms: SLOW_CALL_MS } },
            { name: 'sleep', arguments: { ms: SLOW_CALL_MS } },
          ],
        },
        { text: 'Both done.' },
      ],
    });
    const before = minimal.calls.length;
    const result = await createTestAgent({ hub, model: provider }).ask('Sleep twice.');

    expect(result.toolCalls.map((trace) => trace.sentToModel)).toEqual([
      `slept ${SLOW_CALL_MS} ms`,
      `slept ${SLOW_CALL_MS} ms`,
    ]);
    // The server's own clock: each call started before the other one ended, so they overlapped.
    const [a, b] = minimal.calls.slice(before);
    expect(a?.endedAt).toBeDefined();
    expect(b?.endedAt).toBeDefined();
    expect(a?.startedAt).toBeLessThan(b?.endedAt ?? 0);
    expect(b?.startedAt).toBeLessThan(a?.endedAt ?? 0);
  });

  it('lets the model correct itself after a tool error (adaptive script)', async () => {
    // A model that reads the tool message it got and reacts to it.
    const reactive = (body: ChatRequestBody): ScriptStep => {
      const last = toolMessages(body).at(-1);
      if (last === undefined) return { toolCalls: [{ name: 'get_temperature', arguments: { city: 42 } }] };
      if (last.content.startsWith('{"error"')) {
        return { toolCalls: [{ name: 'get_temperature', arguments: { city: 'Oslo' } }] };
      }
      return { text: `It is ${(JSON.parse(last.content) as { temperatureC: number }).temperatureC} °C.` };
    };
    const { openai, provider } = await model({ fallback: reactive });

    const result = await createTestAgent({ hub, model: provider }).ask('How warm is Oslo?');

    expect(result.answer).toBe('It is 4 °C.');
    expect(result.rounds).toBe(3);
    expect(result.toolCalls.map((trace) => trace.isError)).toEqual([true, false]);
    expect(openai.requests).toHaveLength(3);
  });

  it('reports tool calls and streamed text through the turn events', async () => {
    const { provider } = await model({
      script: [
        { toolCalls: [{ name: 'plain_text', arguments: {}, id: 'call_evt' }] },
        { text: 'All done, thanks.' },
      ],
      chunksPerField: 3,
    });
    const seen: string[] = [];
    const deltas: string[] = [];
    const result = await createTestAgent({ hub, model: provider }).ask('Go', {
      events: {
        onTextDelta: (delta) => deltas.push(delta),
        onToolStart: (call) => seen.push(`start ${call.id} ${call.functionName} ${call.tool}`),
        onToolEnd: (trace: ToolCallTrace) => seen.push(`end ${trace.id} ${trace.isError}`),
      },
    });
    expect(seen).toEqual(['start call_evt plain_text plain_text', 'end call_evt false']);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(result.answer);
  });

  it('says in which round each call ran, on its trace and when it starts', async () => {
    const { provider } = await model({
      script: [
        { toolCalls: [{ name: 'plain_text', arguments: {}, id: 'call_r1' }] },
        {
          toolCalls: [
            { name: 'plain_text', arguments: {}, id: 'call_r2a' },
            { name: 'plain_text', arguments: {}, id: 'call_r2b' },
          ],
        },
        { text: 'Three calls in two rounds.' },
      ],
    });
    const started: string[] = [];
    const result = await createTestAgent({ hub, model: provider }).ask('Go twice', {
      events: { onToolStart: (call) => started.push(`${call.id} ${call.round}`) },
    });
    expect(result.toolCalls.map((trace) => [trace.id, trace.round])).toEqual([
      ['call_r1', 1],
      ['call_r2a', 2],
      ['call_r2b', 2],
    ]);
    expect(started.sort()).toEqual(['call_r1 1', 'call_r2a 2', 'call_r2b 2']);
  });

  it('cancels a running tool call and the turn when the signal aborts', async () => {
    const { openai, provider } = await model({
      script: [{ toolCalls: [{ name: 'sleep', arguments: { ms: 10_000 } }] }, { text: 'never asked' }],
    });
    const controller = new AbortController();
    const before = minimal.callCount('sleep');
    const asking = createTestAgent({ hub, model: provider }).ask('Sleep long.', {
      signal: controller.signal,
    });
    await expect.poll(() => minimal.callCount('sleep'), { timeout: 5_000 }).toBe(before + 1);
    controller.abort();

    await expect(asking).rejects.toBeInstanceOf(ModelAbortedError);
    expect(openai.requests).toHaveLength(1);
    await expect.poll(() => minimal.calls.at(-1)?.aborted, { timeout: 3_000 }).toBe(true);
  });
});

describe('notifications of calls made in the same round', () => {
  let fixture: FixtureServer;
  let legacy: LegacyServer;
  let eraHub: QualifiedMcpHub;
  const eras = [
    { era: 'modern', server: 'fixture', tools: [...CHATTY_TOOLS] },
    { era: '2025', server: 'old', tools: CHATTY_TOOLS.map((tool) => `legacy_${tool}`) },
  ];

  beforeAll(async () => {
    [fixture, legacy] = await Promise.all([startFixtureServer(), startLegacyServer()]);
    eraHub = await connectHub([
      { name: 'fixture', url: fixture.url },
      { name: 'old', url: legacy.url },
    ]);
  });
  afterAll(async () => {
    await eraHub?.close();
    await Promise.all([fixture?.close(), legacy?.close()]);
  });

  it.each(eras)('gives each call of a round only its own logs and progress ($era era)', async ({ tools }) => {
    const { provider } = await model({
      script: [
        { toolCalls: tools.map((name) => ({ name, arguments: { steps: 3, intervalMs: 50 } })) },
        { text: 'Both done.' },
      ],
    });
    const result = await createTestAgent({ hub: eraHub, model: provider }).ask('Run both.');

    for (const tool of tools) {
      const trace = result.toolCalls.find((call) => call.tool === tool);
      const own = [1, 2, 3].map((step) => `${tool} step ${step}`);
      expect(trace?.logs.map((log) => log.data).filter((data) => data !== `${tool} session-wide`)).toEqual(
        own,
      );
      expect(trace?.logs.every((log) => String(log.data).startsWith(tool))).toBe(true);
      expect(trace?.progress.map((event) => event.message)).toEqual(own);
    }
    // What the CLI prints under each call names that call's tool only.
    result.toolCalls.forEach((trace, index) => {
      const other = tools.find((tool) => tool !== trace.tool) ?? '';
      const block = formatToolCall(trace, index);
      expect(block).toContain(`${trace.tool} step 1`);
      expect(block).not.toContain(other);
    });
  });

  it('shows a 2025 session-wide log once, at turn level, when it came while both calls ran', async () => {
    const tools = eras[1]?.tools ?? [];
    const { provider } = await model({
      script: [
        { toolCalls: tools.map((name) => ({ name, arguments: { steps: 3, intervalMs: 50 } })) },
        { text: 'Both done.' },
      ],
    });
    const result = await createTestAgent({ hub: eraHub, model: provider }).ask('Run both.');

    expect(result.serverLogs.map((log) => `${log.server}: ${String(log.data)}`).sort()).toEqual(
      tools.map((tool) => `old: ${tool} session-wide`),
    );
    for (const trace of result.toolCalls) {
      expect(trace.logs.map((log) => log.data)).not.toContainEqual(expect.stringMatching(/session-wide/));
    }
    const lines = formatTurn(result).split('\n');
    expect(lines.filter((line) => line.includes('session-wide'))).toEqual(
      expect.arrayContaining(
        tools.map((tool) => `server log (not tied to a call) from old (info): "${tool} session-wide"`),
      ),
    );
    expect(lines.filter((line) => line.includes('session-wide'))).toHaveLength(2);
  });
});

describe('conversations', () => {
  it('sends the earlier messages of the same conversation, and none of another', async () => {
    const { openai, provider } = await model({
      script: [
        { toolCalls: [{ name: 'get_temperature', arguments: { city: 'Oslo' }, id: 'call_first' }] },
        { text: 'It is 4 °C in Oslo.' },
        { text: 'You asked about Oslo.' },
        { text: 'I do not know.' },
      ],
    });
    const agent = createTestAgent({ hub, model: provider });

    const first = await agent.ask('How warm is Oslo?', { conversationId: 'conv-a' });
    expect(first.conversationId).toBe('conv-a');
    await agent.ask('Which city did I ask about?', { conversationId: 'conv-a' });
    await agent.ask('Which city did I ask about?', { conversationId: 'conv-b' });

    const [, , followUp, other] = openai.bodies();
    expect(followUp?.messages.slice(1)).toEqual([
      { role: 'user', content: 'How warm is Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_first',
            type: 'function',
            function: { name: 'get_temperature', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_first', content: '{"city":"Oslo","temperatureC":4}' },
      { role: 'assistant', content: 'It is 4 °C in Oslo.' },
      { role: 'user', content: 'Which city did I ask about?' },
    ]);
    expect(other?.messages.slice(1)).toEqual([{ role: 'user', content: 'Which city did I ask about?' }]);
  });

  it('gives each ask without an id a new conversation', async () => {
    const { openai, provider } = await model({ script: [{ text: 'one' }, { text: 'two' }] });
    const agent = createTestAgent({ hub, model: provider });
    const a = await agent.ask('first');
    const b = await agent.ask('second');
    expect(a.conversationId).not.toBe(b.conversationId);
    expect(openai.bodies()[1]?.messages).toHaveLength(2);
  });

  it('forgets a conversation on reset', async () => {
    const { openai, provider } = await model({ script: [{ text: 'one' }, { text: 'two' }] });
    const agent = createTestAgent({ hub, model: provider });
    await agent.ask('first', { conversationId: 'conv-reset' });
    expect(agent.reset('conv-reset')).toBe(true);
    await agent.ask('second', { conversationId: 'conv-reset' });
    expect(openai.bodies()[1]?.messages.slice(1)).toEqual([{ role: 'user', content: 'second' }]);
  });

  it('keeps at most maxConversations conversations', async () => {
    const { openai, provider } = await model({ fallback: { text: 'ok' } });
    const conversations = new ConversationStore(2);
    const agent = createTestAgent({ hub, model: provider, conversations });
    for (const id of ['c1', 'c2', 'c3']) await agent.ask(`hello ${id}`, { conversationId: id });
    expect(conversations.size).toBe(2);
    // c1 was least recently used, so it is gone: asking again starts from nothing.
    await agent.ask('again', { conversationId: 'c1' });
    expect(openai.bodies().at(-1)?.messages.slice(1)).toEqual([{ role: 'user', content: 'again' }]);
  });
});

describe('tool list changes', () => {
  it('offers a tool the server added, from the next turn on', async () => {
    const { openai, provider } = await model({
      script: [{ text: 'first' }, { toolCalls: [{ name: 'late_tool', arguments: {} }] }, { text: 'second' }],
    });
    const agent = createTestAgent({ hub, model: provider });
    await agent.ask('before');
    const offered = (body: ChatRequestBody | undefined) =>
      (body?.tools ?? []).map((tool) => tool.function.name);
    expect(offered(openai.bodies()[0])).not.toContain('late_tool');

    minimal.addTool('late_tool');
    // The notification arrives on the subscription stream; the hub only re-lists between turns.
    await expect.poll(() => servers[0]?.hooks.toolsChanged, { timeout: 5_000 }).toBe(true);
    expect(hub.tools().map((tool) => tool.name)).not.toContain('late_tool');

    const result = await agent.ask('after');
    expect(offered(openai.bodies()[1])).toContain('late_tool');
    expect(result.toolCalls[0]?.sentToModel).toBe('added late_tool');
  });
});

describe('model API failures', () => {
  it('throws a ModelAuthError that says to check OPENAI_API_KEY on a 401', async () => {
    const { openai, provider } = await model({ script: [{ httpError: 401 }] });
    const error = await createTestAgent({ hub, model: provider })
      .ask('Hi')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelAuthError);
    expect((error as ModelAuthError).status).toBe(401);
    expect((error as Error).message).toContain('OPENAI_API_KEY');
    expect((error as Error).message).toContain(openai.baseUrl);
    // A 401 is not retried.
    expect(openai.requests).toHaveLength(1);
  });

  it('names the base URL when nothing listens there', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}/v1`;
    const error = await createTestAgent({ hub, model: scriptedModel(baseUrl) })
      .ask('Hi')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelUnreachableError);
    expect((error as Error).message).toContain(baseUrl);
    expect((error as Error).message).toContain('OPENAI_BASE_URL');
    expect((error as ModelUnreachableError).reason).toBe('connection refused');
  });

  it('retries a 500 once, then reports it as a ModelResponseError', async () => {
    const { openai, provider } = await model({ script: [{ httpError: 500 }, { httpError: 500 }] });
    const error = await createTestAgent({ hub, model: provider })
      .ask('Hi')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelResponseError);
    expect((error as Error).message).toContain('(500)');
    expect(openai.requests).toHaveLength(2);
  });

  it('recovers when the retry of a 500 succeeds', async () => {
    const { openai, provider } = await model({ script: [{ httpError: 500 }, { text: 'Recovered.' }] });
    const result = await createTestAgent({ hub, model: provider }).ask('Hi');
    expect(result.answer).toBe('Recovered.');
    expect(openai.requests).toHaveLength(2);
  });
});
