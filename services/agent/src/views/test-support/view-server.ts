/**
 * @module views/test-support/view-server
 * A small MCP server with MCP Apps views for the agent's host-side tests: the official `McpServer`
 * over real HTTP on 127.0.0.1. Its tools cover each visibility (both, app-only, model-only), a view
 * named by the flat `ui/resourceUri` key, a view of the wrong MIME type and a hostile view URI; one
 * view resource no tool names sits beside them. It records every call and resource read, so a test
 * can prove that a refused request never reached the server. Partners: `routes.test.ts`, `hub.test.ts`.
 */
import {
  type CallToolResult,
  createMcpHandler,
  type InputRequiredResult,
  inputRequired,
  McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { serveFetch } from '../../mcp/test-support/serve-fetch.js';
import { VIEW_MIME_TYPE } from '../ui-meta.js';

/** What `board_clear` asks the person. */
export const CLEAR_QUESTION = 'Clear the whole board?';

/** The HTML each view serves; tests look for it in what the agent hands the page. */
export const BOARD_HTML = '<!doctype html><title>board</title><p>the board</p>';
export const FLAT_HTML = '<!doctype html><title>flat</title><p>a view named the old way</p>';

/** What each tool of the fixture is for; the names are the same on every instance. */
export const VIEW_TOOLS = {
  /** Has the board view; says nothing of visibility, so model and view may both call it. */
  both: 'show_board',
  /** Has the board view and `visibility: ["app"]`: only the view may call it. */
  appOnly: 'board_refresh',
  /** App-only, and always answers with `isError`. */
  appFailing: 'board_fail',
  /** App-only; asks the person to confirm (2026-07-28 `input_required`) before it clears the board. */
  appAsking: 'board_clear',
  /** `visibility: ["model"]`: a view may not call it. */
  modelOnly: 'model_only',
  /** Names its view with the drafts' flat `_meta["ui/resourceUri"]`. */
  flat: 'flat_view',
  /** Names a view whose resource is plain `text/html`. */
  wrongMime: 'wrong_mime_view',
  /** Names `javascript:…` as its view, which the agent must not take for one. */
  hostile: 'hostile_view',
} as const;

export interface ViewServer {
  url: string;
  /** The view URIs, each under `ui://<name>/`. */
  views: { board: string; flat: string; wrongMime: string; undeclared: string };
  /** Every tool called, by name, in order. */
  readonly calls: string[];
  /** Every resource read, by URI, in order. */
  readonly reads: string[];
  close(): Promise<void>;
}

/** One `resources/read` content, less its URI. */
type ViewContent = { mimeType: string; _meta?: Record<string, unknown> } & (
  | { text: string }
  | { blob: string }
);

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** Starts the fixture on 127.0.0.1 (the OS picks the port); `name` goes into each view URI. */
export async function startViewServer(name = 'fixture'): Promise<ViewServer> {
  const views = {
    board: `ui://${name}/board`,
    flat: `ui://${name}/flat`,
    wrongMime: `ui://${name}/wrong-mime`,
    undeclared: `ui://${name}/undeclared`,
  };
  const calls: string[] = [];
  const reads: string[] = [];

  const buildServer = () => {
    const server = new McpServer({ name: `view-fixture-${name}`, version: '1.0.0' });
    const tool = (
      tool: string,
      _meta: Record<string, unknown>,
      run: (
        args: { column?: string | undefined },
        ctx: ServerContext,
      ) => CallToolResult | InputRequiredResult,
    ) =>
      server.registerTool(
        tool,
        {
          description: `Fixture tool ${tool}.`,
          inputSchema: z.object({ column: z.string().optional().describe('A column of the board.') }),
          _meta,
        },
        async (args, ctx) => {
          calls.push(tool);
          return run(args, ctx);
        },
      );
    tool(VIEW_TOOLS.both, { ui: { resourceUri: views.board } }, () => text('board shown'));
    tool(VIEW_TOOLS.appOnly, { ui: { resourceUri: views.board, visibility: ['app'] } }, (args) => ({
      ...text(`refreshed ${args.column ?? 'all'}`),
      structuredContent: { column: args.column ?? 'all' },
    }));
    tool(VIEW_TOOLS.appFailing, { ui: { visibility: ['app'] } }, () => ({
      ...text('the board is locked'),
      isError: true,
    }));
    tool(VIEW_TOOLS.appAsking, { ui: { visibility: ['app'] } }, (_args, ctx) => {
      const answer = ctx.mcpReq.inputResponses?.confirm as
        | { action: string; content?: { confirm?: unknown } }
        | undefined;
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              mode: 'form',
              message: CLEAR_QUESTION,
              requestedSchema: {
                type: 'object',
                properties: { confirm: { type: 'boolean', title: 'Clear' } },
                required: ['confirm'],
              },
            }),
          },
        });
      }
      const cleared = answer.action === 'accept' && answer.content?.confirm === true;
      return text(cleared ? 'board cleared' : `not cleared (${answer.action})`);
    });
    tool(VIEW_TOOLS.modelOnly, { ui: { resourceUri: views.board, visibility: ['model'] } }, () =>
      text('for the model'),
    );
    tool(VIEW_TOOLS.flat, { 'ui/resourceUri': views.flat }, () => text('flat'));
    tool(VIEW_TOOLS.wrongMime, { ui: { resourceUri: views.wrongMime } }, () => text('wrong'));
    tool(VIEW_TOOLS.hostile, { ui: { resourceUri: 'javascript:alert(1)' } }, () => text('hostile'));

    const resource = (uri: string, content: ViewContent) =>
      server.registerResource(uri, uri, { mimeType: VIEW_MIME_TYPE }, async () => {
        reads.push(uri);
        return { contents: [{ uri, ...content }] };
      });
    resource(views.board, {
      mimeType: VIEW_MIME_TYPE,
      text: BOARD_HTML,
      _meta: {
        ui: {
          prefersBorder: true,
          csp: {
            connectDomains: ['https://api.example.com', '*'],
            resourceDomains: ['https://CDN.example.com'],
          },
        },
      },
    });
    resource(views.flat, { mimeType: VIEW_MIME_TYPE, blob: Buffer.from(FLAT_HTML).toString('base64') });
    resource(views.wrongMime, { mimeType: 'text/html', text: BOARD_HTML });
    resource(views.undeclared, { mimeType: VIEW_MIME_TYPE, text: '<p>no tool names me</p>' });
    return server;
  };

  const handler = createMcpHandler(buildServer);
  const served = await serveFetch((request) => handler.fetch(request));
  return {
    url: served.url,
    views,
    calls,
    reads,
    async close() {
      await handler.close();
      await served.close();
    },
  };
}
