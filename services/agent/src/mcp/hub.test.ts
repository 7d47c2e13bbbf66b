import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallOutcome, InputAnswer, InputRequest, ServerLogMessage } from '../types.js';
import { ViewError } from '../views/read-view.js';
import { startViewServer, VIEW_TOOLS, type ViewServer } from '../views/test-support/view-server.js';
import { connectServer } from './connect.js';
import { QUALIFIED_NAME_SEPARATOR } from './discover.js';
import { classifyFailure, createMcpHub, type QualifiedMcpHub } from './hub.js';
import {
  CHATTY_TOOLS,
  FIXTURE_FILLER_TOOLS,
  type FixtureServer,
  type LegacyServer,
  LONG_DOTTED_TOOL,
  startFixtureServer,
  startLegacyServer,
} from './test-support/fixture-server.js';
import { type CapturedLogger, captureLogger, silentLogger } from './test-support/logger.js';
import { listModelToolNames, startWorkshopServer, type WorkshopServer } from './test-support/workshop.js';

const clientInfo = { name: 'agent-test', version: '0.0.0' };
/** Generous for a local call, short enough that the timeout tests stay quick. */
const CALL_TIMEOUT_MS = 5_000;
/** Longer than any test here may run: a call bounded by it can only end by the event under test. */
const NEVER_MS = 10 * 60_000;
/** Three steps 50 ms apart: two calls started together overlap for their whole length. */
const CHATTY_ARGS = { steps: 3, intervalMs: 50 };

/** What a trace shows of a call's notifications, without the timings. */
function notifications(outcome: CallOutcome) {
  return {
    logs: outcome.logs.map((event) => event.data),
    progress: outcome.progress.map((event) => event.message),
  };
}

/** The notifications a chatty tool sends on its own stream, each naming the tool. */
function ownNotifications(tool: string) {
  const steps = [1, 2, 3].map((step) => `${tool} step ${step}`);
  return { logs: steps, progress: steps };
}

describe('createMcpHub', () => {
  let workshop: WorkshopServer;
  let fixture: FixtureServer;
  let hub: QualifiedMcpHub;
  let captured: CapturedLogger;
  const inputRequests: InputRequest[] = [];
  let nextAnswer: InputAnswer = { action: 'decline' };

  beforeAll(async () => {
    [workshop, fixture] = await Promise.all([startWorkshopServer(), startFixtureServer()]);
    captured = captureLogger('debug');
    const options = {
      clientInfo,
      logger: captured.logger,
      onInput: async (request: InputRequest) => {
        inputRequests.push(request);
        return nextAnswer;
      },
    };
    const servers = await Promise.all([
      connectServer({ transport: 'http', name: 'workshop', url: workshop.url }, options),
      connectServer({ transport: 'http', name: 'fixture', url: fixture.url }, options),
    ]);
    hub = createMcpHub(servers, captured.logger);
  });
  afterAll(async () => {
    await hub?.close();
    await Promise.all([workshop?.close(), fixture?.close()]);
  });

  it('reports each server with its negotiated protocol and the name and version it gave', () => {
    expect(hub.servers()).toEqual([
      expect.objectContaining({
        name: 'workshop',
        era: 'modern',
        protocolVersion: '2026-07-28',
        implementation: { name: 'mcp-workshop-server', version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
      }),
      expect.objectContaining({
        name: 'fixture',
        era: 'modern',
        protocolVersion: '2026-07-28',
        implementation: { name: 'fixture', version: '1.0.0' },
      }),
    ]);
  });

  it('discovers the tools of every server, reading every tools/list page', async () => {
    // 34 tools at 10 per page: 4 pages, all of them read at connect time.
    expect(fixture.listRequests()).toBe(4);
    const tools = hub.tools();
    expect(tools.filter((tool) => tool.server === 'workshop').map((tool) => tool.name)).toEqual(
      await listModelToolNames(workshop.url),
    );
    // 25 fillers plus 9 named tools, served 10 per page.
    expect(tools.filter((tool) => tool.server === 'fixture').map((tool) => tool.name)).toEqual(
      fixture.toolNames(),
    );
    expect(tools.filter((tool) => tool.name.startsWith('filler_'))).toHaveLength(FIXTURE_FILLER_TOOLS);
  });

  it('prefixes only the names that several servers offer', () => {
    const qualified = hub.tools().map((tool) => `${tool.server}:${tool.name} -> ${tool.qualifiedName}`);
    expect(qualified).toContain(`workshop:get_weather -> workshop${QUALIFIED_NAME_SEPARATOR}get_weather`);
    expect(qualified).toContain(`fixture:get_weather -> fixture${QUALIFIED_NAME_SEPARATOR}get_weather`);
    expect(qualified).toContain('workshop:calculate -> calculate');
    expect(qualified).toContain('fixture:filler_00 -> filler_00');
    expect(new Set(hub.tools().map((tool) => tool.qualifiedName)).size).toBe(hub.tools().length);
  });

  it('keeps a long dotted tool name intact and calls it by that name', async () => {
    const tool = hub.tools().find((candidate) => candidate.name === LONG_DOTTED_TOOL);
    expect(tool?.qualifiedName).toBe(LONG_DOTTED_TOOL);
    const outcome = await hub.callTool(
      'fixture',
      LONG_DOTTED_TOOL,
      { customer: 'ACME' },
      { timeoutMs: CALL_TIMEOUT_MS },
    );
    expect(outcome.result?.content).toEqual([{ type: 'text', text: 'draft created for ACME' }]);
  });

  it('returns the result with structuredContent when get_weather succeeds', async () => {
    const outcome = await hub.callTool(
      'workshop',
      'get_weather',
      { location: 'Oslo' },
      { timeoutMs: CALL_TIMEOUT_MS },
    );
    expect(outcome.failure).toBeUndefined();
    expect(outcome.result?.isError).toBeFalsy();
    expect(outcome.result?.structuredContent).toMatchObject({ place: { name: 'Oslo' } });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a JSON-RPC -32602 failure when the tool does not exist', async () => {
    const outcome = await hub.callTool('workshop', 'no_such_tool', {}, { timeoutMs: CALL_TIMEOUT_MS });
    expect(outcome.result).toBeUndefined();
    expect(outcome.failure).toMatchObject({ kind: 'jsonrpc', code: -32602 });
    expect(outcome.failure?.message).toContain('no_such_tool');
  });

  it('reports an aborted failure when the signal fires during the call', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    // `hang` answers only after 10 s and the call timeout is longer than the test's: the abort ends it.
    const outcome = await hub.callTool(
      'fixture',
      'hang',
      {},
      { timeoutMs: NEVER_MS, signal: controller.signal },
    );
    expect(outcome.failure?.kind).toBe('aborted');
    expect(outcome.result).toBeUndefined();
  });

  it('reports an aborted failure without calling when the signal has already fired', async () => {
    const outcome = await hub.callTool(
      'workshop',
      'get_weather',
      { location: 'Oslo' },
      {
        timeoutMs: CALL_TIMEOUT_MS,
        signal: AbortSignal.abort(),
      },
    );
    expect(outcome.failure?.kind).toBe('aborted');
  });

  it('lets progress notifications restart the timeout so a slow call still succeeds', async () => {
    // The steps together outlast the timeout twice over; each gap between them is a third of it,
    // so a loaded machine may stall the loop for most of a second before the timeout fires.
    const steps = 6;
    const seen: number[] = [];
    const outcome = await hub.callTool(
      'fixture',
      'progress_steps',
      { steps, intervalMs: 400 },
      { timeoutMs: 1_200, onProgress: (event) => seen.push(event.progress) },
    );
    expect(outcome.failure).toBeUndefined();
    expect(outcome.result?.content).toEqual([{ type: 'text', text: `done after ${steps} steps` }]);
    const numbers = Array.from({ length: steps }, (_, index) => index + 1);
    expect(seen).toEqual(numbers);
    expect(outcome.progress.map(({ progress, total, message }) => ({ progress, total, message }))).toEqual(
      numbers.map((step) => ({ progress: step, total: steps, message: `step ${step}` })),
    );
    // Each progress event is stamped in order, within the call.
    const stamps = [0, ...outcome.progress.map((event) => event.atMs), outcome.durationMs];
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
  });

  it('reports a timeout failure when the tool sends neither answer nor progress', async () => {
    const outcome = await hub.callTool('fixture', 'hang', {}, { timeoutMs: 300 });
    expect(outcome.failure).toMatchObject({ kind: 'timeout' });
    expect(outcome.failure?.message).toContain('300 ms');
    expect(outcome.result).toBeUndefined();
  });

  it('collects the log notifications sent during a call, at info level and above', async () => {
    const heard: string[] = [];
    const outcome = await hub.callTool(
      'fixture',
      'log_messages',
      {},
      { timeoutMs: CALL_TIMEOUT_MS, onLog: (event) => heard.push(event.level) },
    );
    expect(outcome.result?.content).toEqual([{ type: 'text', text: 'logged' }]);
    expect(outcome.logs.map(({ level, logger, data }) => ({ level, logger, data }))).toEqual([
      { level: 'info', logger: 'fixture', data: 'starting' },
      { level: 'warning', logger: undefined, data: { detail: 'almost done' } },
    ]);
    expect(heard).toEqual(['info', 'warning']);
  });

  it('gives each of two concurrent calls only its own logs and progress', async () => {
    const notTied: ServerLogMessage[] = [];
    const onServerLog = (event: ServerLogMessage) => notTied.push(event);
    const outcomes = await Promise.all(
      CHATTY_TOOLS.map((tool) =>
        hub.callTool('fixture', tool, CHATTY_ARGS, { timeoutMs: CALL_TIMEOUT_MS, onServerLog }),
      ),
    );
    expect(outcomes.map(notifications)).toEqual(CHATTY_TOOLS.map(ownNotifications));
    expect(outcomes.map((outcome) => outcome.logs.map((event) => event.logger))).toEqual(
      CHATTY_TOOLS.map((tool) => [tool, tool, tool]),
    );
    // Each log came on its call's own response stream, so none is left over for the turn.
    expect(notTied).toEqual([]);
  });

  it('asks the person through onInput and passes an accepted answer to the tool', async () => {
    inputRequests.length = 0;
    nextAnswer = { action: 'accept', content: { name: 'Ada' } };
    const outcome = await hub.callTool('fixture', 'ask_name', {}, { timeoutMs: CALL_TIMEOUT_MS });
    expect(inputRequests).toEqual([
      {
        server: 'fixture',
        message: 'What is your name?',
        schema: {
          type: 'object',
          properties: { name: { type: 'string', title: 'Name' } },
          required: ['name'],
        },
      },
    ]);
    expect(outcome.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    // The request for input is on the call's trace; the SDK's own "Fulfilling input required by
    // 'tools/call' (round 1)", which it passes to onprogress, is not the server's progress.
    expect(outcome.inputs).toEqual([
      { message: 'What is your name?', action: 'accept', atMs: expect.any(Number) },
    ]);
    expect(outcome.progress).toEqual([]);
  });

  it('passes a declined answer to the tool, and keeps on the trace that nobody was asked', async () => {
    inputRequests.length = 0;
    nextAnswer = { action: 'decline', notAsked: 'nobody to ask' };
    const outcome = await hub.callTool('fixture', 'ask_name', {}, { timeoutMs: CALL_TIMEOUT_MS });
    expect(inputRequests).toHaveLength(1);
    expect(outcome.inputs).toEqual([
      {
        message: 'What is your name?',
        action: 'decline',
        notAsked: 'nobody to ask',
        atMs: expect.any(Number),
      },
    ]);
    expect(outcome.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The person chose "decline".' }],
    });
  });

  it('passes a result the shared schema rejects through unchanged and logs a warning', async () => {
    captured.lines.length = 0;
    const outcome = await hub.callTool('fixture', 'array_result', {}, { timeoutMs: CALL_TIMEOUT_MS });
    expect(outcome.result?.structuredContent).toEqual([1, 2, 3]);
    const warning = captured.lines.find((line) => String(line.msg).startsWith('tool result does not match'));
    expect(warning).toMatchObject({ server: 'fixture', tool: 'array_result' });
  });

  it('reports a transport failure for a server it does not know', async () => {
    const outcome = await hub.callTool('nowhere', 'get_weather', {}, { timeoutMs: CALL_TIMEOUT_MS });
    expect(outcome.failure).toEqual({
      kind: 'transport',
      message: 'No MCP server named "nowhere" is connected.',
    });
  });

  it('swaps in a changed tool list only when refresh() is called', async () => {
    const before = hub.tools();
    expect(await hub.refresh()).toBe(false);
    fixture.addTool('added_later');
    // The notification travels over the subscriptions/listen stream; wait for the SDK to see it.
    await expect
      .poll(() => captured.lines.some((line) => line.msg === 'MCP server says its tool list changed'), {
        timeout: 5_000,
      })
      .toBe(true);
    expect(hub.tools()).toBe(before);
    expect(await hub.refresh()).toBe(true);
    const after = hub.tools();
    expect(after).not.toBe(before);
    expect(after.find((tool) => tool.name === 'added_later')).toMatchObject({
      server: 'fixture',
      qualifiedName: 'added_later',
    });
    expect(after).toHaveLength(before.length + 1);
    expect(await hub.refresh()).toBe(false);
    const outcome = await hub.callTool('fixture', 'added_later', {}, { timeoutMs: CALL_TIMEOUT_MS });
    expect(outcome.result?.content).toEqual([{ type: 'text', text: 'added_later' }]);
  });
});

describe('createMcpHub with a 2025-era server', () => {
  let legacy: LegacyServer;
  let hub: QualifiedMcpHub;
  let captured: CapturedLogger;
  const inputRequests: InputRequest[] = [];

  beforeAll(async () => {
    legacy = await startLegacyServer();
    captured = captureLogger('debug');
    const server = await connectServer(
      { transport: 'http', name: 'old', url: legacy.url },
      {
        clientInfo,
        logger: captured.logger,
        onInput: async (request) => {
          inputRequests.push(request);
          return { action: 'accept', content: { colour: 'teal' } };
        },
      },
    );
    hub = createMcpHub([server], silentLogger());
  });
  afterAll(async () => {
    await hub?.close();
    await legacy?.close();
  });

  it('reports the legacy era', () => {
    expect(hub.servers()).toEqual([expect.objectContaining({ name: 'old', era: 'legacy' })]);
  });

  it('attributes log notifications that arrive during a call to that call', async () => {
    const outcome = await hub.callTool('old', 'legacy_log', {}, { timeoutMs: CALL_TIMEOUT_MS });
    expect(outcome.result?.content).toEqual([{ type: 'text', text: 'logged' }]);
    expect(outcome.logs.map(({ level, data }) => ({ level, data }))).toEqual([
      { level: 'info', data: 'legacy starting' },
      { level: 'error', data: 'legacy trouble' },
    ]);
  });

  it('gives each of two concurrent calls only the logs and progress of its own stream', async () => {
    const tools = CHATTY_TOOLS.map((tool) => `legacy_${tool}`);
    const notTied: ServerLogMessage[] = [];
    // One function for the turn, as the loop passes it to every call of a turn.
    const onServerLog = (event: ServerLogMessage) => notTied.push(event);
    const outcomes = await Promise.all(
      tools.map((tool) =>
        hub.callTool('old', tool, CHATTY_ARGS, { timeoutMs: CALL_TIMEOUT_MS, onServerLog }),
      ),
    );
    expect(outcomes.map(notifications)).toEqual(tools.map(ownNotifications));
    // The session-wide logs came on the shared GET stream while both calls ran: neither call
    // gets them, and the turn hears each once.
    expect(notTied.map((event) => ({ server: event.server, data: event.data })).sort(byData)).toEqual(
      tools.map((tool) => ({ server: 'old', data: `${tool} session-wide` })),
    );
  });

  it('gives a log that names no call to the only call running on that server', async () => {
    const notTied: ServerLogMessage[] = [];
    const tool = `legacy_${CHATTY_TOOLS[0]}`;
    const outcome = await hub.callTool('old', tool, CHATTY_ARGS, {
      timeoutMs: CALL_TIMEOUT_MS,
      onServerLog: (event) => notTied.push(event),
    });
    expect(outcome.logs.map((event) => event.data).sort()).toEqual(
      [...ownNotifications(tool).logs, `${tool} session-wide`].sort(),
    );
    expect(notTied).toEqual([]);
  });

  it('answers a pushed elicitation request through the same onInput handler', async () => {
    const outcome = await hub.callTool('old', 'legacy_ask', {}, { timeoutMs: CALL_TIMEOUT_MS });
    expect(inputRequests).toEqual([expect.objectContaining({ server: 'old', message: 'Favourite colour?' })]);
    expect(outcome.result?.content).toEqual([{ type: 'text', text: 'colour: teal' }]);
    expect(outcome.inputs).toEqual([
      { message: 'Favourite colour?', action: 'accept', atMs: expect.any(Number) },
    ]);
  });

  it('picks up a tool announced by an unsolicited list_changed notification on refresh()', async () => {
    legacy.addTool('legacy_added');
    await expect
      .poll(() => captured.lines.some((line) => line.msg === 'MCP server says its tool list changed'), {
        timeout: 5_000,
      })
      .toBe(true);
    expect(hub.tools().map((tool) => tool.name)).not.toContain('legacy_added');
    expect(await hub.refresh()).toBe(true);
    expect(hub.tools().map((tool) => tool.name)).toContain('legacy_added');
  });
});

function byData(a: { data: unknown }, b: { data: unknown }): number {
  return String(a.data).localeCompare(String(b.data));
}

describe('createMcpHub with MCP Apps views', () => {
  let views: ViewServer;
  let hub: QualifiedMcpHub;
  let captured: CapturedLogger;

  beforeAll(async () => {
    views = await startViewServer('fixture');
    captured = captureLogger('debug');
    const server = await connectServer(
      { transport: 'http', name: 'fixture', url: views.url },
      { clientInfo, logger: captured.logger, onInput: async () => ({ action: 'decline' }) },
    );
    hub = createMcpHub([server], captured.logger);
  });
  afterAll(async () => {
    await hub?.close();
    await views?.close();
  });

  /** The ViewError `readView` rejects with, or fails the test. */
  async function viewError(server: string, uri: string): Promise<ViewError> {
    const error = await hub.readView(server, uri).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ViewError);
    return error as ViewError;
  }

  it('never offers the model a tool only a view may call', () => {
    const names = hub.tools().map((tool) => tool.name);
    expect(names).not.toContain(VIEW_TOOLS.appOnly);
    expect(names).not.toContain(VIEW_TOOLS.appFailing);
    expect(names).not.toContain(VIEW_TOOLS.appAsking);
    expect(names).toEqual(
      expect.arrayContaining([VIEW_TOOLS.both, VIEW_TOOLS.modelOnly, VIEW_TOOLS.flat, VIEW_TOOLS.hostile]),
    );
    expect(hub.tools().find((tool) => tool.name === VIEW_TOOLS.both)?.ui).toEqual({
      resourceUri: views.views.board,
      visibility: ['model', 'app'],
    });
  });

  it('finds a tool a view may call by its exact name on its own server only', () => {
    expect(hub.appTool('fixture', VIEW_TOOLS.appOnly)).toMatchObject({
      server: 'fixture',
      name: VIEW_TOOLS.appOnly,
      ui: { resourceUri: views.views.board, visibility: ['app'] },
    });
    expect(hub.appTool('fixture', VIEW_TOOLS.both)?.name).toBe(VIEW_TOOLS.both);
    expect(hub.appTool('fixture', VIEW_TOOLS.modelOnly)).toBeUndefined();
    expect(hub.appTool('fixture', VIEW_TOOLS.appOnly.toUpperCase())).toBeUndefined();
    expect(hub.appTool('fixture', 'no_such_tool')).toBeUndefined();
    expect(hub.appTool('nobody', VIEW_TOOLS.appOnly)).toBeUndefined();
  });

  it('knows a view only by the exact URI a tool names, never a hostile one', () => {
    expect(hub.hasView('fixture', views.views.board)).toBe(true);
    expect(hub.hasView('fixture', views.views.flat)).toBe(true);
    for (const uri of [
      views.views.undeclared,
      'javascript:alert(1)',
      'UI://fixture/board',
      `${views.views.board}/`,
    ]) {
      expect(hub.hasView('fixture', uri), uri).toBe(false);
    }
    expect(hub.hasView('nobody', views.views.board)).toBe(false);
    expect(hub.tools().find((tool) => tool.name === VIEW_TOOLS.hostile)?.ui).toBeUndefined();
  });

  it('reads a view through the connection, and logs each declared origin it left out', async () => {
    const view = await hub.readView('fixture', views.views.board);
    expect(view).toMatchObject({ server: 'fixture', uri: views.views.board, prefersBorder: true });
    expect(view.csp.connectDomains).toEqual(['https://api.example.com']);
    expect(captured.lines).toContainEqual(
      expect.objectContaining({ entry: 'connectDomains: *', uri: views.views.board, server: 'fixture' }),
    );
  });

  it('refuses, without asking the server, a view no tool names or of an unknown server', async () => {
    const reads = views.reads.length;
    expect((await viewError('fixture', views.views.undeclared)).kind).toBe('not_found');
    expect((await viewError('nobody', views.views.board)).kind).toBe('not_found');
    expect(views.reads).toHaveLength(reads);
  });

  it('calls a server whose view resource is not a view a bad resource', async () => {
    const error = await viewError('fixture', views.views.wrongMime);
    expect(error.kind).toBe('bad_resource');
    expect(error.message).toContain('"text/html"');
  });
});

describe('classifyFailure', () => {
  it('calls an SDK timeout a timeout unless the caller aborted', () => {
    const timeout = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: 100 });
    expect(classifyFailure(timeout, { timeoutMs: 100 })).toMatchObject({ kind: 'timeout' });
    expect(classifyFailure(timeout, { timeoutMs: 100, signal: AbortSignal.abort() })).toMatchObject({
      kind: 'aborted',
    });
  });

  it('names the total limit when progress kept a call going too long', () => {
    const error = new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
      maxTotalTimeout: 600_000,
      totalElapsed: 600_001,
    });
    expect(classifyFailure(error, { timeoutMs: 100 }).message).toContain('600000 ms');
  });

  it('reports anything else as a transport failure with its deepest cause', () => {
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed', undefined, {
      cause: new Error('socket hang up'),
    });
    expect(classifyFailure(error, { timeoutMs: 100 })).toEqual({
      kind: 'transport',
      message: 'socket hang up',
    });
  });
});
