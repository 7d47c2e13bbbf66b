/**
 * Proves that pnpm applied our patch to the installed MCP SDK (`patchedDependencies` in
 * pnpm-workspace.yaml). The patch edits the SDK's hashed dist chunks (`dist/src-<hash>.mjs`,
 * `dist/mcp-<hash>.mjs` and their `.cjs` twins), so an SDK upgrade that drops or renames them loses
 * the fix; these tests then fail and say how to carry it over (patches/README.md). Series patches
 * 01, 02, 06, 07, 08, 09 and 12 are checked here, 05 in sdk-patch-close.test.ts.
 */
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/client';
import * as esmSdk from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SDK_PATCH_NOT_APPLIED as NOT_APPLIED, SDK_PACKAGE } from './test-support/sdk-patch.js';

type Sdk = typeof esmSdk;

/** The CommonJS build: the patch edits it too, so a `require` consumer gets the same fixes. */
const cjsSdk = createRequire(import.meta.url)(SDK_PACKAGE) as Sdk;

/** A JSON-RPC request that records every property read, to see whether the SDK parsed it at all. */
function watchedRequest(): { message: object; reads: PropertyKey[] } {
  const reads: PropertyKey[] = [];
  const message = new Proxy(
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    {
      get(target, key, receiver) {
        reads.push(key);
        return Reflect.get(target, key, receiver);
      },
    },
  );
  return { message, reads };
}

/** The JSON-RPC error code `logging/setLevel` with an unknown level gets from a server built with `sdk`. */
async function setLevelErrorCode(sdk: Sdk): Promise<unknown> {
  const server = new sdk.McpServer(
    { name: 'patch-check', version: '0.0.0' },
    { capabilities: { logging: {} } },
  );
  const client = new Client({ name: 'patch-check-client', version: '0.0.0' });
  const [clientSide, serverSide] = sdk.InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const error: unknown = await client
      .request({ method: 'logging/setLevel', params: { level: 'loud' as 'info' } })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    return (error as { code?: unknown } | undefined)?.code;
  } finally {
    await client.close();
    await server.close();
  }
}

const MODERN = '2026-07-28';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
/** Which series patch a failing check is about, after the message that names the composed file. */
const notApplied = (series: string) => `${NOT_APPLIED} (series patch ${series})`;

/** What a tool that starts an MCP Task (SEP-2663) answers tools/call with: the task, not its result. */
const CREATE_TASK_RESULT = {
  resultType: 'task',
  taskId: 'task-1',
  status: 'working',
  statusMessage: 'Queued',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUpdatedAt: '2026-11-20T10:00:00.000Z',
  ttlMs: 3_600_000,
  pollIntervalMs: 1_000,
} as const;

/** The -32021 data a task-only tool answers a client without the Tasks extension with. */
const REQUIRED_CAPABILITIES = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };

/**
 * A server built with `sdk` with the tools the Tasks patches are about: `start_report` (with an
 * output schema, which describes the finished report) and `start_plain` (without one) both answer
 * with a CreateTaskResult; `task_only` refuses with -32021, as a tool that only runs as a task does
 * for a client that did not declare the extension.
 */
function tasksServer(sdk: Sdk) {
  const server = new sdk.McpServer({ name: 'patch-check', version: '0.0.0' });
  // The handler's declared type is a CallToolResult: the SDK has no Tasks runtime to type a task.
  const startTask = async () => CREATE_TASK_RESULT as unknown as esmSdk.CallToolResult;
  server.registerTool(
    'start_report',
    {
      description: 'Starts a report as a task',
      inputSchema: z.object({}),
      outputSchema: z.object({ report: z.string() }),
    },
    startTask,
  );
  server.registerTool('start_plain', { description: 'Starts a task', inputSchema: z.object({}) }, startTask);
  server.registerTool(
    'task_only',
    { description: 'Runs only as a task', inputSchema: z.object({}) },
    async () => {
      throw new sdk.MissingRequiredClientCapabilityError(
        REQUIRED_CAPABILITIES,
        `task_only needs the ${TASKS_EXTENSION} extension`,
      );
    },
  );
  return server;
}

/** A 2026-07-28 request, as the SDK's per-request HTTP entry receives it. */
function modernRequest(
  method: string,
  params: Record<string, unknown>,
  clientCapabilities: Record<string, unknown>,
  { id = 1 as string | number, name }: { id?: string | number; name?: string } = {},
): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name !== undefined && { 'mcp-name': name }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'patch-check-client', version: '0.0.0' },
          'io.modelcontextprotocol/clientCapabilities': clientCapabilities,
        },
      },
    }),
  });
}

/** A 2026-07-28 tools/call of `name`, without arguments. */
function modernCall(name: string, clientCapabilities: Record<string, unknown>): Request {
  return modernRequest('tools/call', { name, arguments: {} }, clientCapabilities, { name });
}

interface Answer {
  status: number;
  body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
}

/** Calls a tool of `tasksServer` on the 2026-07-28 era through `createMcpHandler`; the raw answer. */
async function callModern(
  sdk: Sdk,
  name: string,
  clientCapabilities: Record<string, unknown>,
): Promise<Answer> {
  const handler = sdk.createMcpHandler(() => tasksServer(sdk));
  try {
    const response = await handler.fetch(modernCall(name, clientCapabilities));
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  } finally {
    await handler.close();
  }
}

/** A 2026-07-28 `subscriptions/listen` request asking for `filter`. */
function listenRequest(filter: Record<string, unknown>): Request {
  return modernRequest(
    'subscriptions/listen',
    { notifications: filter },
    { extensions: { [TASKS_EXTENSION]: {} } },
    {
      id: 'listen-1',
    },
  );
}

/** Reads SSE `data:` messages off a stream, one at a time. */
function sseMessages(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return {
    async next(): Promise<
      { method?: string; params?: Record<string, unknown>; result?: unknown } | undefined
    > {
      for (;;) {
        const end = buffered.indexOf('\n\n');
        if (end >= 0) {
          const frame = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (data) return JSON.parse(data.slice(6));
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffered += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

/** A task as `tasks/get` answers it, for the status events. */
const TASK_STATUS = {
  taskId: 'task-1',
  status: 'working',
  statusMessage: 'section 2 of 8',
  createdAt: '2026-11-28T10:00:00.000Z',
  lastUpdatedAt: '2026-11-28T10:00:01.000Z',
  ttlMs: 3_600_000,
  pollIntervalMs: 500,
};

/**
 * Opens a listen stream on a handler whose server does (or does not) declare the Tasks extension;
 * the acknowledgement, the stream, and the bus to publish on.
 */
async function openListen(sdk: Sdk, declaresTasks: boolean, filter: Record<string, unknown>) {
  const bus = new sdk.InMemoryServerEventBus();
  const handler = sdk.createMcpHandler(
    () => {
      const server = new sdk.McpServer({ name: 'patch-check', version: '0.0.0' });
      server.registerTool('noop', { description: 'Nothing', inputSchema: z.object({}) }, async () => ({
        content: [],
      }));
      if (declaresTasks) server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
      return server;
    },
    { bus },
  );
  const response = await handler.fetch(listenRequest(filter));
  if (!response.body) throw new Error(`listen answered ${response.status} without a stream`);
  const messages = sseMessages(response.body);
  const ack = await messages.next();
  const close = async () => {
    await messages.cancel();
    await handler.close();
  };
  return { ack, messages, bus, close };
}

/** A 2025-11-25 `tools/call` without a session, as the stateless fallback serves it. */
function legacyCall(name: string): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
  });
}

/** How long a check waits for an abort to reach a tool before saying it never did. */
const ABORT_WAIT_MS = 2_000;

/**
 * Serves a `wait` tool, which runs until its call is cancelled, through `createMcpHandler`, with
 * the Request built without a signal and the exchange's signal handed in as `options.signal`
 * (series patch 09); aborts that signal once the tool runs. Resolves to whether the tool heard it.
 */
async function toolHearsHandedSignal(sdk: Sdk, request: Request): Promise<boolean> {
  let markStarted = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  let markHeard = () => {};
  const heard = new Promise<boolean>((resolve) => {
    markHeard = () => resolve(true);
  });
  const handler = sdk.createMcpHandler(
    () => {
      const server = new sdk.McpServer({ name: 'patch-check', version: '0.0.0' });
      server.registerTool(
        'wait',
        { description: 'Waits to be cancelled', inputSchema: z.object({}) },
        (_args, ctx) => {
          markStarted();
          return new Promise((resolve) => {
            ctx.mcpReq.signal.addEventListener('abort', () => {
              markHeard();
              resolve({ content: [] });
            });
          });
        },
      );
      return server;
    },
    { legacy: 'stateless' },
  );
  const exchange = new AbortController();
  const answer = handler.fetch(request, { signal: exchange.signal } as esmSdk.McpHandlerRequestOptions);
  try {
    await started;
    exchange.abort();
    return await Promise.race([
      heard,
      new Promise<boolean>((resolve) => setTimeout(resolve, ABORT_WAIT_MS, false)),
    ]);
  } finally {
    // Unpatched, the legacy exchange is still streaming: cancelling its body ends it.
    const response = await Promise.race([
      answer,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50)),
    ]);
    await response?.body?.cancel().catch(() => undefined);
    await handler.close();
  }
}

describe.each([
  ['ESM build', esmSdk],
  ['CommonJS build', cjsSdk],
])('the patched MCP SDK (%s)', (_build, sdk) => {
  it('answers params that fail the method schema with -32602, not -32603 (typescript-sdk #2284)', async () => {
    expect(await setLevelErrorCode(sdk), NOT_APPLIED).toBe(-32602);
  });

  it('rejects a message without a "result" or "error" key before any schema reads it', () => {
    const { message, reads } = watchedRequest();
    expect(sdk.isJSONRPCResultResponse(message)).toBe(false);
    expect(sdk.isJSONRPCErrorResponse(message)).toBe(false);
    // Unpatched, zod's safeParse reads jsonrpc, id, … of every request before failing.
    expect(reads, NOT_APPLIED).toEqual([]);
  });

  it('still recognises real result and error responses, and rejects malformed ones', () => {
    expect(sdk.isJSONRPCResultResponse({ jsonrpc: '2.0', id: 1, result: {} })).toBe(true);
    expect(sdk.isJSONRPCErrorResponse({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'x' } })).toBe(
      true,
    );
    expect(sdk.isJSONRPCResultResponse({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } })).toBe(
      false,
    );
    expect(sdk.isJSONRPCResultResponse({ jsonrpc: '1.0', id: 1, result: {} })).toBe(false);
    expect(sdk.isJSONRPCErrorResponse({ jsonrpc: '2.0', id: 1, error: 'boom' })).toBe(false);
    for (const value of [null, undefined, 42, 'result', ['result']]) {
      expect(sdk.isJSONRPCResultResponse(value)).toBe(false);
      expect(sdk.isJSONRPCErrorResponse(value)).toBe(false);
    }
  });

  it.each(['start_report', 'start_plain'])(
    "passes %s's CreateTaskResult through tools/call as it is (2026-07-28)",
    async (tool) => {
      const { status, body } = await callModern(sdk, tool, { extensions: { [TASKS_EXTENSION]: {} } });
      expect(status).toBe(200);
      const { _meta, ...fields } = body.result ?? {};
      // Unpatched, start_report's answer is an isError result ("has an output schema but no
      // structured content") and start_plain's gains `content: []`.
      expect(fields, notApplied('06-server-task-result-passthrough')).toEqual(CREATE_TASK_RESULT);
      // The only addition is the server's identity, which the SDK stamps on every 2026-07-28 result.
      expect(Object.keys(_meta as object)).toEqual([SERVER_INFO_KEY]);
    },
  );

  it('refuses a CreateTaskResult toward a 2025 client with -32603, not an empty success', async () => {
    const server = tasksServer(sdk);
    const client = new Client({ name: 'patch-check-client', version: '0.0.0' });
    const [clientSide, serverSide] = sdk.InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const outcome: unknown = await client.callTool({ name: 'start_plain', arguments: {} }).then(
        (result) => result,
        (caught: unknown) => caught,
      );
      // Unpatched, the client gets `{ content: [] }`: a success that says nothing.
      expect((outcome as { code?: unknown }).code, notApplied('06-server-task-result-passthrough')).toBe(
        -32603,
      );
      expect(String((outcome as Error).message)).toContain("resultType 'task'");
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('answers a -32021 thrown by a tool as that JSON-RPC error, with HTTP 400 (2026-07-28)', async () => {
    const { status, body } = await callModern(sdk, 'task_only', {});
    // Unpatched, it is a 200 with an isError tool result, the capability lost in its text.
    expect(body.error?.code, notApplied('07-server-missing-capability-error')).toBe(-32021);
    expect(body.result).toBeUndefined();
    expect(status).toBe(400);
    expect(body.error?.data).toEqual(REQUIRED_CAPABILITIES);
    expect(body.error?.message).toBe(`task_only needs the ${TASKS_EXTENSION} extension`);
  });

  it('acknowledges the taskIds of a subscriptions/listen filter and sends notifications/tasks for them only', async () => {
    const listen = await openListen(sdk, true, { taskIds: ['task-1'] });
    try {
      // Unpatched, the filter's schema strips taskIds: the ack is empty and the stream ends at once.
      expect(listen.ack?.method).toBe('notifications/subscriptions/acknowledged');
      expect(listen.ack?.params?.notifications, notApplied('08-server-listen-task-ids')).toEqual({
        taskIds: ['task-1'],
      });
      // Another task's status, which this stream did not ask for, is not sent; its own is.
      listen.bus.publish({ kind: 'task_status', task: { ...TASK_STATUS, taskId: 'task-2' } });
      listen.bus.publish({ kind: 'task_status', task: TASK_STATUS });
      const note = await listen.messages.next();
      expect(note?.method).toBe('notifications/tasks');
      const { _meta, ...task } = note?.params ?? {};
      expect(task).toEqual(TASK_STATUS);
      expect(_meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': 'listen-1' });
    } finally {
      await listen.close();
    }
  });

  it("cancels a 2026-07-28 call when the exchange's signal, handed in apart from the Request, aborts", async () => {
    // Unpatched, the handler follows only request.signal, which a Request built without one never fires.
    expect(
      await toolHearsHandedSignal(sdk, modernCall('wait', {})),
      notApplied('09-server-exchange-signal'),
    ).toBe(true);
  });

  it("tears down a stateless 2025 call when the exchange's signal, handed in apart from the Request, aborts", async () => {
    expect(
      await toolHearsHandedSignal(sdk, legacyCall('wait')),
      notApplied('09-server-exchange-signal'),
    ).toBe(true);
  });

  it("ends a listen stream when the exchange's signal, handed in apart from the Request, aborts", async () => {
    // A server with a tool honours toolsListChanged, so its stream stays open until something ends it.
    const handler = sdk.createMcpHandler(() => tasksServer(sdk));
    const exchange = new AbortController();
    const response = await handler.fetch(listenRequest({ toolsListChanged: true }), {
      signal: exchange.signal,
    } as esmSdk.McpHandlerRequestOptions);
    try {
      if (!response.body) throw new Error(`listen answered ${response.status} without a stream`);
      const messages = sseMessages(response.body);
      const ack = await messages.next();
      expect(ack?.params?.notifications).toEqual({ toolsListChanged: true });
      exchange.abort();
      const end = await Promise.race([
        messages.next().then(() => 'ended'),
        new Promise<string>((resolve) => setTimeout(resolve, ABORT_WAIT_MS, 'still open')),
      ]);
      expect(end, notApplied('09-server-exchange-signal')).toBe('ended');
    } finally {
      await response.body?.cancel().catch(() => undefined);
      await handler.close();
    }
  });

  it('settles a JSON answer without a body and keeps its text, with jsonText: true (2026-07-28)', async () => {
    const jsonTextOf = (
      sdk.PerRequestHTTPServerTransport as { jsonTextOf?: (response: Response) => string | undefined }
    ).jsonTextOf;
    expect(typeof jsonTextOf, notApplied('12-server-json-answer-text')).toBe('function');
    const answers: Record<string, { status: number; body: unknown; text: string | undefined }> = {};
    for (const jsonText of [true, false]) {
      const handler = sdk.createMcpHandler(() => tasksServer(sdk), {
        jsonText,
      } as esmSdk.CreateMcpHandlerOptions);
      try {
        for (const [name, request] of [
          ['result', modernCall('start_plain', { extensions: { [TASKS_EXTENSION]: {} } })],
          // A -32021 from a handler is answered on the HTTP ladder (400), through the same path.
          ['error', modernCall('task_only', {})],
        ] as const) {
          const response = await handler.fetch(request);
          answers[`${name} ${jsonText}`] = {
            status: response.status,
            body: response.body === null ? null : await response.json(),
            text: jsonTextOf?.(response),
          };
        }
      } finally {
        await handler.close();
      }
    }
    for (const name of ['result', 'error']) {
      const kept = answers[`${name} true`];
      const streamed = answers[`${name} false`];
      // The same answer either way: once as a body, once as the kept text.
      expect(kept?.body).toBeNull();
      expect(streamed?.text).toBeUndefined();
      expect(JSON.parse(kept?.text ?? 'null')).toEqual(streamed?.body);
      expect(kept?.status).toBe(streamed?.status);
    }
    expect(answers['error true']?.status).toBe(400);
  });

  it('does not acknowledge taskIds when the server does not declare the Tasks extension', async () => {
    const listen = await openListen(sdk, false, { taskIds: ['task-1'] });
    try {
      expect(listen.ack?.params?.notifications).toEqual({});
      // Nothing honored: the stream closes with the listen request's (empty) result.
      expect((await listen.messages.next())?.result).toMatchObject({ resultType: 'complete' });
      expect(await listen.messages.next()).toBeUndefined();
    } finally {
      await listen.close();
    }
  });
});
