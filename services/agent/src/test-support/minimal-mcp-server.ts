/**
 * @module test-support/minimal-mcp-server
 * A second, deliberately small MCP server for the agent's contract tests: the official `McpServer`
 * served over Streamable HTTP on 127.0.0.1, with hand-written results (none of the workshop's
 * builders), so the tests prove the agent works with any server, not only ours. It counts calls,
 * records when each started and ended, and keeps each request's `_meta` as it came off the wire.
 * Partners: `contract.test.ts`, `telemetry/telemetry.test.ts`.
 */
import {
  type CallToolResult,
  createMcpHandler,
  McpServer,
  ProtocolError,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { serveFetch } from '../mcp/test-support/serve-fetch.js';

/** A 1x1 transparent PNG: 96 base64 characters, 70 bytes. */
export const PIXEL_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The code `backend_down` fails with: in the JSON-RPC range for implementation-defined server errors. */
export const BACKEND_DOWN_CODE = -32050;
export const BACKEND_DOWN_MESSAGE = 'The inventory backend is unavailable';

/** A dotted name, as namespaced MCP servers use; OpenAI function names cannot contain dots. */
export const DOTTED_TOOL = 'weather.forecast.daily';

/** `sleep` gives up after this, so a broken test cannot keep the server busy. */
const MAX_SLEEP_MS = 10_000;

/** Requests kept for inspection; a test that sends more than this has a bug, not a use for them. */
const MAX_RECORDED_REQUESTS = 1_000;

/** One `tools/call` the server received. Times are `performance.now()` in this process. */
export interface RecordedCall {
  tool: string;
  arguments: Record<string, unknown>;
  startedAt: number;
  endedAt?: number;
  /** True when the call was cancelled (client timeout or abort) before it finished. */
  aborted?: boolean;
}

/** One JSON-RPC request as it arrived, before the SDK read it. */
export interface RecordedRequest {
  method: string;
  /** `params._meta` exactly as sent; undefined when the request had none. */
  meta?: Record<string, unknown>;
}

export interface MinimalMcpServer {
  /** e.g. http://127.0.0.1:41234/mcp */
  url: string;
  /** Every call, in arrival order. */
  readonly calls: RecordedCall[];
  /** Every JSON-RPC request (not notification) POSTed to it, in arrival order. */
  readonly requests: RecordedRequest[];
  /** How many calls reached the server, optionally of one tool. */
  callCount(tool?: string): number;
  /** Adds a tool (answering `added <name>`) and announces it with `notifications/tools/list_changed`. */
  addTool(name: string): void;
  close(): Promise<void>;
}

interface MinimalTool {
  name: string;
  description: string;
  input?: z.ZodObject;
  run(args: Record<string, unknown>, ctx: ServerContext): Promise<CallToolResult>;
}

const text = (value: string): CallToolResult['content'][number] => ({ type: 'text', text: value });

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function minimalTools(): MinimalTool[] {
  return [
    {
      name: 'get_temperature',
      description: 'Current temperature in a city. structuredContent plus the same JSON as text.',
      input: z.object({ city: z.string().min(1).describe('City name, e.g. "Oslo".') }),
      // The text is the same JSON in another key order and spacing: the agent must see it as a copy.
      run: async (args) => ({
        content: [text(`{ "temperatureC": 4, "city": ${JSON.stringify(args.city)} }`)],
        structuredContent: { city: args.city, temperatureC: 4 },
      }),
    },
    {
      name: 'city_facts',
      description: 'Facts about a city. structuredContent plus text that says more.',
      input: z.object({ city: z.string().min(1).describe('City name.') }),
      run: async (args) => ({
        content: [text(`${String(args.city)} is the capital of Norway.`)],
        structuredContent: { city: args.city, population: 717710 },
      }),
    },
    {
      name: 'find_city',
      description: 'Looks a city up; fails with isError for unknown names.',
      input: z.object({ city: z.string().describe('City name.') }),
      run: async (args) => ({
        content: [text(`Unknown city "${String(args.city)}". Did you mean "Oslo"?`)],
        isError: true,
      }),
    },
    {
      name: 'plain_text',
      description: 'Answers with two text blocks and no structuredContent.',
      run: async () => ({ content: [text('First line.'), text('Second line.')] }),
    },
    {
      name: 'pixel',
      description: 'Answers with a caption and a 1x1 PNG.',
      run: async () => ({
        content: [text('A pixel:'), { type: 'image', data: PIXEL_PNG_BASE64, mimeType: 'image/png' }],
      }),
    },
    {
      name: 'sleep',
      description: 'Sleeps for ms milliseconds (cancellable), then answers.',
      input: z.object({ ms: z.number().int().min(0).max(MAX_SLEEP_MS).describe('How long to sleep.') }),
      async run(args, ctx) {
        const finished = await sleep(Number(args.ms), ctx.mcpReq.signal);
        return { content: [text(finished ? `slept ${String(args.ms)} ms` : 'cancelled')] };
      },
    },
    {
      name: 'backend_down',
      description: 'Always fails with a JSON-RPC error, not a result.',
      run: async () => {
        throw new ProtocolError(BACKEND_DOWN_CODE, BACKEND_DOWN_MESSAGE);
      },
    },
    {
      name: DOTTED_TOOL,
      description: 'A tool whose name has dots.',
      input: z.object({ city: z.string().describe('City name.') }),
      run: async (args) => ({ content: [text(`Daily forecast for ${String(args.city)}: dry.`)] }),
    },
  ];
}

/** Starts the server on 127.0.0.1 with a port the OS picks. */
export async function startMinimalMcpServer(): Promise<MinimalMcpServer> {
  const calls: RecordedCall[] = [];
  const tools = minimalTools();

  // createMcpHandler builds a fresh McpServer per request; the tool table and the call log are shared.
  const buildServer = () => {
    const server = new McpServer({ name: 'minimal', version: '0.0.1' });
    for (const tool of tools) {
      server.registerTool(
        tool.name,
        { description: tool.description, ...(tool.input && { inputSchema: tool.input }) },
        // Listed through McpServer; calls go through the handler below.
        async () => ({ content: [] }),
      );
    }
    // McpServer turns anything a tool throws (a ProtocolError too) into an `isError` result, so a
    // real JSON-RPC error needs the low-level `tools/call` handler. It does what McpServer does
    // (check the input, run, catch), except that a ProtocolError goes out as a JSON-RPC error.
    server.server.setRequestHandler('tools/call', async (request, ctx) => {
      const tool = tools.find((candidate) => candidate.name === request.params.name);
      if (!tool) throw new ProtocolError(-32602, `Tool ${request.params.name} not found`);
      const args = request.params.arguments ?? {};
      const record: RecordedCall = { tool: tool.name, arguments: args, startedAt: performance.now() };
      calls.push(record);
      const parsed = tool.input ? tool.input.safeParse(args) : { success: true as const, data: args };
      try {
        if (!parsed.success) {
          return { content: [text(`Invalid arguments: ${parsed.error.message}`)], isError: true };
        }
        return server.server.projectCallToolResult(await tool.run(parsed.data, ctx), undefined);
      } catch (error) {
        if (error instanceof ProtocolError) throw error;
        return { content: [text(error instanceof Error ? error.message : String(error))], isError: true };
      } finally {
        record.endedAt = performance.now();
        if (ctx.mcpReq.signal.aborted) record.aborted = true;
      }
    });
    return server;
  };

  const handler = createMcpHandler(buildServer);
  const requests: RecordedRequest[] = [];
  const served = await serveFetch(async (request) => {
    if (request.method === 'POST' && requests.length < MAX_RECORDED_REQUESTS) {
      requests.push(...requestsIn(await request.clone().text()));
    }
    return handler.fetch(request);
  });
  return {
    url: served.url,
    calls,
    requests,
    callCount: (tool) => calls.filter((call) => tool === undefined || call.tool === tool).length,
    addTool(name) {
      tools.push({
        name,
        description: 'Added at runtime.',
        run: async () => ({ content: [text(`added ${name}`)] }),
      });
      handler.notify.toolsChanged();
    },
    async close() {
      await handler.close();
      await served.close();
    },
  };
}

/** The requests in a POST body (one message or a batch); anything unparsable records nothing. */
function requestsIn(body: string): RecordedRequest[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  return messages.flatMap((message) => {
    const { id, method, params } = (message ?? {}) as {
      id?: unknown;
      method?: unknown;
      params?: { _meta?: unknown };
    };
    if (typeof method !== 'string' || id === undefined) return [];
    const meta = params?._meta;
    return [
      { method, ...(typeof meta === 'object' && meta !== null && { meta: meta as Record<string, unknown> }) },
    ];
  });
}
