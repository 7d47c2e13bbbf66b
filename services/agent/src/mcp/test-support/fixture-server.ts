/**
 * @module mcp/test-support/fixture-server
 * Two small MCP servers for the agent's tests, built with the official SDK and served over real
 * HTTP on 127.0.0.1: a dual-era one (`createMcpHandler`) whose tools cover the awkward cases —
 * pagination, progress, hanging, logging, elicitation, a name the workshop server also uses, a
 * tool added at runtime, two tools that log and report progress at once — and a 2025-only one
 * for the legacy fallback.
 */
import { randomUUID } from 'node:crypto';
import {
  type CallToolResult,
  createMcpHandler,
  type InputRequiredResult,
  inputRequired,
  McpServer,
  Server,
  type ServerContext,
  type Tool,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { type ServedFetch, serveFetch } from './serve-fetch.js';

/** Small pages, so the 30-odd tools take four `tools/list` round trips. */
export const FIXTURE_PAGE_SIZE = 10;
export const FIXTURE_FILLER_TOOLS = 25;
/** Longer than OpenAI's 64-character limit and full of dots, as MCP allows (up to 128). */
export const LONG_DOTTED_TOOL =
  'acme.billing.invoices.create_draft_with_a_very_long_descriptive_name_that_exceeds_sixty_four';
/** The `hang` tool gives up after this, so a broken test cannot keep the server busy forever. */
const HANG_LIMIT_MS = 10_000;
/**
 * Two tools that log and report progress step by step: called together, their notifications
 * interleave, so a test can check that each call's trace holds only its own. Every log and
 * progress message names the tool that sent it.
 */
export const CHATTY_TOOLS = ['chatty_one', 'chatty_two'] as const;
/** Arguments for a chatty tool: a few steps, far enough apart that two calls overlap. */
const chattyArgs: Tool['inputSchema'] = {
  type: 'object',
  properties: { steps: { type: 'integer' }, intervalMs: { type: 'integer' } },
  required: ['steps', 'intervalMs'],
};

type ToolReply = CallToolResult | InputRequiredResult;

interface FixtureTool {
  name: string;
  description: string;
  inputSchema: Tool['inputSchema'];
  run(args: Record<string, unknown>, ctx: ServerContext): Promise<ToolReply>;
}

export interface FixtureServer {
  url: string;
  /** Tool names in listing order. */
  toolNames(): string[];
  /** How many `tools/list` requests (pages) the server has answered. */
  listRequests(): number;
  /** Adds a tool and sends `notifications/tools/list_changed` to every open subscription. */
  addTool(name: string): void;
  close(): Promise<void>;
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const noArgs: Tool['inputSchema'] = { type: 'object' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fixtureTools(): FixtureTool[] {
  const tools: FixtureTool[] = [
    {
      name: 'get_weather',
      description: 'Same name as the workshop tool, different server.',
      inputSchema: noArgs,
      run: async () => ({ ...text('fixture weather'), structuredContent: { source: 'fixture' } }),
    },
    {
      name: 'progress_steps',
      description: 'Reports progress every intervalMs, steps times, then answers.',
      inputSchema: {
        type: 'object',
        properties: { steps: { type: 'integer' }, intervalMs: { type: 'integer' } },
        required: ['steps', 'intervalMs'],
      },
      async run(args, ctx) {
        const steps = Number(args.steps);
        const token = ctx.mcpReq._meta?.progressToken;
        for (let step = 1; step <= steps; step++) {
          await sleep(Number(args.intervalMs));
          if (token !== undefined) {
            await ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken: token, progress: step, total: steps, message: `step ${step}` },
            });
          }
        }
        return text(`done after ${steps} steps`);
      },
    },
    {
      name: 'hang',
      description: 'Never answers (until cancelled) and reports no progress.',
      inputSchema: noArgs,
      async run(_args, ctx) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, HANG_LIMIT_MS);
          ctx.mcpReq.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        return text('gave up hanging');
      },
    },
    {
      name: 'log_messages',
      description: 'Sends a debug, an info and a warning log notification, then answers.',
      inputSchema: noArgs,
      async run(_args, ctx) {
        await ctx.mcpReq.log('debug', 'too chatty to send');
        await ctx.mcpReq.log('info', 'starting', 'fixture');
        await ctx.mcpReq.log('warning', { detail: 'almost done' });
        return text('logged');
      },
    },
    ...CHATTY_TOOLS.map(
      (name): FixtureTool => ({
        name,
        description: 'Logs and reports progress every intervalMs, steps times, then answers.',
        inputSchema: chattyArgs,
        async run(args, ctx) {
          const steps = Number(args.steps);
          const token = ctx.mcpReq._meta?.progressToken;
          for (let step = 1; step <= steps; step++) {
            await sleep(Number(args.intervalMs));
            await ctx.mcpReq.log('info', `${name} step ${step}`, name);
            if (token !== undefined) {
              await ctx.mcpReq.notify({
                method: 'notifications/progress',
                params: {
                  progressToken: token,
                  progress: step,
                  total: steps,
                  message: `${name} step ${step}`,
                },
              });
            }
          }
          return text(`${name} done`);
        },
      }),
    ),
    {
      name: 'ask_name',
      description: 'Asks the person for their name (elicitation), then greets them.',
      inputSchema: noArgs,
      async run(_args, ctx) {
        const answer = ctx.mcpReq.inputResponses?.name as
          | { action: string; content?: { name?: unknown } }
          | undefined;
        if (answer === undefined) {
          return inputRequired({
            inputRequests: {
              name: inputRequired.elicit({
                message: 'What is your name?',
                requestedSchema: {
                  type: 'object',
                  properties: { name: { type: 'string', title: 'Name' } },
                  required: ['name'],
                },
              }),
            },
          });
        }
        if (answer.action !== 'accept')
          return { ...text(`The person chose "${answer.action}".`), isError: true };
        return text(`Hello, ${String(answer.content?.name)}!`);
      },
    },
    {
      name: LONG_DOTTED_TOOL,
      description: 'A long dotted name, as namespaced servers use.',
      inputSchema: { type: 'object', properties: { customer: { type: 'string' } } },
      run: async (args) => text(`draft created for ${String(args.customer)}`),
    },
    {
      name: 'array_result',
      description: 'Returns an array as structuredContent (allowed since 2026-07-28, not in 2025).',
      inputSchema: noArgs,
      run: async () => ({ ...text('[1,2,3]'), structuredContent: [1, 2, 3] }),
    },
  ];
  for (let i = 0; i < FIXTURE_FILLER_TOOLS; i++) {
    const name = `filler_${String(i).padStart(2, '0')}`;
    tools.push({ name, description: `Filler tool ${i}.`, inputSchema: noArgs, run: async () => text(name) });
  }
  return tools;
}

/** Starts the dual-era fixture server on 127.0.0.1 (port 0: the OS picks). */
export async function startFixtureServer(port = 0): Promise<FixtureServer> {
  const tools = fixtureTools();
  let listRequests = 0;

  // createMcpHandler builds a fresh instance per request; the tool table is the shared state.
  const buildServer = () => {
    const server = new Server(
      { name: 'fixture', version: '1.0.0' },
      {
        capabilities: { tools: { listChanged: true }, logging: {} },
        instructions: 'Fixture server for tests.',
      },
    );
    server.setRequestHandler('tools/list', async (request) => {
      listRequests++;
      const start = Number(request.params?.cursor ?? 0);
      const end = start + FIXTURE_PAGE_SIZE;
      return {
        tools: tools
          .slice(start, end)
          .map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
        ...(end < tools.length && { nextCursor: String(end) }),
      };
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const tool = tools.find((candidate) => candidate.name === request.params.name);
      if (!tool) return { ...text(`Unknown tool ${request.params.name}`), isError: true };
      return tool.run(request.params.arguments ?? {}, ctx);
    });
    return server;
  };
  const handler = createMcpHandler(buildServer);
  const served = await serveFetch((request) => handler.fetch(request), port);
  return {
    url: served.url,
    toolNames: () => tools.map((tool) => tool.name),
    listRequests: () => listRequests,
    addTool(name) {
      tools.push({
        name,
        description: 'Added at runtime.',
        inputSchema: noArgs,
        run: async () => text(name),
      });
      handler.notify.toolsChanged();
    },
    async close() {
      await handler.close();
      await served.close();
    },
  };
}

/**
 * A 2025-only server: `McpServer` on the SDK's stateful Streamable HTTP transport answers
 * `server/discover` with an error, so a negotiating client must fall back to `initialize`.
 */
export interface LegacyServer extends ServedFetch {
  /** Registers a tool; the SDK then sends `notifications/tools/list_changed` on the session's GET stream. */
  addTool(name: string): void;
}

export async function startLegacyServer(port = 0): Promise<LegacyServer> {
  const server = new McpServer(
    { name: 'legacy-fixture', version: '1.0.0' },
    { capabilities: { logging: {} } },
  );
  server.registerTool(
    'legacy_echo',
    {
      description: 'Echoes its text.',
      inputSchema: z.object({ text: z.string().describe('What to echo.') }),
    },
    async ({ text: value }) => text(value),
  );
  server.registerTool('legacy_log', { description: 'Logs twice, then answers.' }, async (ctx) => {
    await ctx.mcpReq.log('info', 'legacy starting');
    await ctx.mcpReq.log('error', 'legacy trouble');
    return text('logged');
  });
  for (const name of CHATTY_TOOLS.map((tool) => `legacy_${tool}`)) {
    server.registerTool(
      name,
      {
        description: 'Logs and reports progress on its own stream; the first step also logs session-wide.',
        inputSchema: z.object({
          steps: z.number().int().describe('How many steps.'),
          intervalMs: z.number().int().describe('Pause before each step.'),
        }),
      },
      async ({ steps, intervalMs }, ctx) => {
        const token = ctx.mcpReq._meta?.progressToken;
        for (let step = 1; step <= steps; step++) {
          await sleep(intervalMs);
          await ctx.mcpReq.log('info', `${name} step ${step}`, name);
          // No related request: the SDK sends this on the session's GET stream, as a 2025 server
          // may, so nothing on the wire says which call it belongs to.
          if (step === 1)
            await server.server.sendLoggingMessage({ level: 'info', data: `${name} session-wide` });
          if (token !== undefined) {
            await ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken: token, progress: step, total: steps, message: `${name} step ${step}` },
            });
          }
        }
        return text(`${name} done`);
      },
    );
  }
  server.registerTool(
    'legacy_ask',
    { description: 'Asks for a colour (2025 push elicitation).' },
    async (ctx) => {
      const answer = await ctx.mcpReq.elicitInput({
        mode: 'form',
        message: 'Favourite colour?',
        requestedSchema: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] },
      });
      return text(answer.action === 'accept' ? `colour: ${String(answer.content?.colour)}` : answer.action);
    },
  );
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  const served = await serveFetch((request) => transport.handleRequest(request), port);
  return {
    ...served,
    addTool(name) {
      server.registerTool(name, { description: 'Added at runtime.' }, async () => text(name));
    },
    async close() {
      await server.close();
      await served.close();
    },
  };
}
