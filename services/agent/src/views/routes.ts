/**
 * @module views/routes
 * The chat page's side of MCP Apps, under `/api/views` and behind the same sign-in, Origin check and
 * JSON-only rule as the rest of `/api` (`http.ts`):
 * - `GET /api/views/resource?server=S&uri=ui://…` reads a view through the agent's connection to S,
 *   but only a URI one of S's tools names as its view: the page cannot read other resources this way.
 * - `POST /api/views/call` `{server, uri, name, arguments}` is a view's `tools/call`. It runs only a
 *   tool of the view's own server whose visibility includes "app", through the agent's connection
 *   (its sign-in, the server's rate limits), as the page's caller (a tool's request for input goes to
 *   this page), and answers as server-sent events: `input_request`, then `done` `{result, trace}`.
 * Both share one per-caller limit, AGENT_VIEW_CALLS_PER_MINUTE, so a view that floods gets 429s.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@mcp-workshop/shared';
import { type RequestHandler, type Response, Router } from 'express';
import { z } from 'zod';
import { openEventStream } from '../event-stream.js';
import { callerOf, perCallerLimit } from '../http-access.js';
import type { InputBroker } from '../input-broker.js';
import type { Logger } from '../logger.js';
import { finish } from '../loop.js';
import type { ToolCallTrace } from '../trace.js';
import type { McpHub } from '../types.js';
import { ViewError } from './read-view.js';
import { MAX_VIEW_URI_CHARS } from './ui-meta.js';

/** AGENT_VIEW_CALLS_PER_MINUTE's default: a board of buttons clicked briskly, not a script. */
export const DEFAULT_VIEW_CALLS_PER_MINUTE = 60;

/** The MCP limit on a tool name is 128 characters; a server name is a config key. */
const ViewCallBody = z.strictObject({
  server: z.string().min(1).max(200),
  uri: z.string().min(1).max(MAX_VIEW_URI_CHARS),
  name: z.string().min(1).max(128),
  arguments: z.record(z.string(), z.unknown()).optional(),
});

export interface ViewRoutesOptions {
  /** The connected hub; `whenReady` ran first, so it is there. */
  hub: () => McpHub;
  whenReady: RequestHandler;
  logger: Logger;
  callsPerMinute: number;
  toolTimeoutMs: number;
  inputBroker?: InputBroker;
}

/** What `POST /api/views/call` sends as `done`. */
export interface ViewCallAnswer {
  result: CallToolResult;
  trace: ToolCallTrace;
}

function problem(res: Response, status: number, error: string, problems?: string[]): void {
  res.status(status).json({ error, ...(problems && { problems }) });
}

/** A failed call as the view sees it: an `isError` result with the reason, as MCP Apps hosts do. */
function failedResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export function viewRoutes(options: ViewRoutesOptions): Router {
  const { logger, inputBroker } = options;
  const router = Router();
  const limit = perCallerLimit(options.callsPerMinute, 'view requests', 'AGENT_VIEW_CALLS_PER_MINUTE');

  router.get('/resource', limit, options.whenReady, async (req, res) => {
    const server = typeof req.query.server === 'string' ? req.query.server : '';
    const uri = typeof req.query.uri === 'string' ? req.query.uri : '';
    if (!server || !uri || uri.length > MAX_VIEW_URI_CHARS) {
      return problem(res, 400, 'Send ?server=<server name>&uri=<ui:// view URI>.');
    }
    try {
      const view = await options.hub().readView(server, uri);
      res.set('cache-control', 'no-store').json(view);
    } catch (error) {
      if (error instanceof ViewError && error.kind === 'not_found') return problem(res, 404, error.message);
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn({ server, uri, reason }, 'could not read a view');
      problem(res, 502, `The server's view could not be read: ${reason}`);
    }
  });

  router.post('/call', limit, options.whenReady, async (req, res) => {
    const parsed = ViewCallBody.safeParse(req.body);
    if (!parsed.success) {
      return problem(
        res,
        400,
        'Send {"server": "...", "uri": "ui://...", "name": "...", "arguments"?: {...}}.',
        parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`),
      );
    }
    const { server, uri, name } = parsed.data;
    const args = parsed.data.arguments ?? {};
    const hub = options.hub();
    // A view speaks for its own server only, and only to the tools that server opened to views.
    if (!hub.hasView(server, uri)) {
      return problem(res, 404, `No tool of a server named "${server}" has the view ${uri}.`);
    }
    if (!hub.appTool(server, name)) {
      logger.warn({ server, uri, tool: name }, 'a view asked for a tool it may not call');
      return problem(
        res,
        403,
        `Tool "${name}" is not available to views: only tools of "${server}" whose _meta.ui.visibility includes "app" are.`,
      );
    }

    const { send, signal, ask } = openEventStream(res);
    const started = performance.now();
    const call = () => hub.callTool(server, name, args, { timeoutMs: options.toolTimeoutMs, signal });
    const outcome = inputBroker
      ? await inputBroker.runAs({ caller: callerOf(res).id, listener: ask }, call)
      : await call();
    const base = {
      id: `view-${randomUUID()}`,
      round: 0,
      functionName: name,
      server,
      tool: name,
      arguments: args,
    };
    const notSent = { text: '', source: 'empty' as const, truncated: false };
    const trace: ToolCallTrace = {
      ...finish(
        base,
        started,
        notSent,
        outcome.result ? { result: outcome.result } : { problem: outcome.failure },
      ),
      calledBy: 'view',
      progress: outcome.progress,
      logs: outcome.logs,
      inputs: outcome.inputs,
    };
    const result = outcome.result ?? failedResult(outcome.failure?.message ?? 'The call produced no result.');
    logger.info({ server, tool: name, uri, isError: trace.isError }, 'a view called a tool');
    send('done', { result, trace } satisfies ViewCallAnswer);
    res.end();
  });

  return router;
}
