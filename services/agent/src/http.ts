/**
 * @module http
 * The agent's HTTP API: `POST /api/chat` (one answer as JSON), `POST /api/chat/stream` (the same
 * as server-sent events: text deltas, tool calls as they start and end, then the result),
 * `/api/views/…` (MCP Apps: a tool's view and a view's tool calls, `views/routes.ts`),
 * `POST /api/input/:id` (the page's answer to a tool's request for input, which the stream
 * announced as `input_request`), `GET /api/catalogue/events` (the tools, views and a dev server's
 * status, pushed as they change: `http-catalogue-feed.ts`), `GET /api/status` (starting, ready or failed; the sign-in link;
 * who is signed in; the trace viewer's link template), `GET /health`, and the chat page built from
 * `web/` at `/`. Each answer names its OpenTelemetry trace (`traceId`, null with telemetry off).
 * It may serve before the agent is connected (`startup.ts`): the chat then answers 503.
 * Who may call is `http-access.ts`: with AGENT_API_TOKEN set, every /api route needs the bearer
 * token or the session cookie of the one-time link, and /health says no more than up or not.
 * `createAgentApp()` binds nothing; `index.ts` listens.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hostHeaderValidation } from '@modelcontextprotocol/express';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { type ApiAccess, type Caller, createApiAccess } from './api-access.js';
import { openEventStream } from './event-stream.js';
import {
  callerFrom,
  callerOf,
  jsonBodiesOnly,
  oneTimeLink,
  perCallerLimit,
  requireCaller,
  sameOriginOnly,
} from './http-access.js';
import { catalogueFeed } from './http-catalogue-feed.js';
import type { InputBroker, InputListener } from './input-broker.js';
import { ModelError } from './llm/errors.js';
import type { Logger } from './logger.js';
import { type AgentStartup, type AgentStatus, type ReadyAgent, readyStartup } from './startup.js';
import type { TurnResult } from './trace.js';
import { DEFAULT_VIEW_CALLS_PER_MINUTE, viewRoutes } from './views/routes.js';

/** AGENT_TOOL_TIMEOUT_MS's default, for apps built without env.ts. */
const DEFAULT_VIEW_TOOL_TIMEOUT_MS = 30_000;

/** A question is a paragraph, not a document. */
export const MAX_MESSAGE_CHARS = 8_000;
const MAX_BODY_BYTES = 256 * 1024;
const LOCALHOST_NAMES = ['localhost', '127.0.0.1', '[::1]'];
/** Where `vite build` puts the chat page: `dist/web`, beside this file once compiled (`dist/http.js`). */
const WEB_DIR = fileURLToPath(new URL('../dist/web', import.meta.url));
/** AGENT_RATE_LIMIT_PER_MINUTE's default, for apps built without env.ts (tests, web-e2e). */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 30;

/** Bounds on a form answer: a handful of short fields, never a document. */
const MAX_INPUT_FIELDS = 50;
const MAX_INPUT_TEXT = 2_000;
const MAX_INPUT_CHOICES = 50;
const INPUT_ID = /^[A-Za-z0-9_-]{1,100}$/;

const InputValue = z.union([
  z.string().max(MAX_INPUT_TEXT),
  z.number().finite(),
  z.boolean(),
  z.array(z.string().max(MAX_INPUT_TEXT)).max(MAX_INPUT_CHOICES),
]);
const FieldName = z.string().min(1).max(100);
const InputAnswerBody = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('accept'),
    content: z
      .record(FieldName, InputValue)
      .refine((content) => Object.keys(content).length <= MAX_INPUT_FIELDS, 'too many fields')
      .default({}),
  }),
  z.strictObject({ action: z.literal('decline') }),
  z.strictObject({ action: z.literal('cancel') }),
]);

const ChatRequest = z.strictObject({
  message: z.string().trim().min(1, 'message must not be empty').max(MAX_MESSAGE_CHARS),
  conversationId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'conversationId: 1-100 letters, digits, "-" or "_"')
    .optional(),
});

interface CommonAppOptions {
  logger: Logger;
  allowedHosts?: string[];
  /** Extra browser origins (scheme://host[:port]) besides the page's own. */
  allowedOrigins?: string[];
  /** Who may call (`api-access.ts`); default: everyone who reaches the port, as without AGENT_API_TOKEN. */
  access?: ApiAccess;
  /** Chat turns, and separately answers to requests for input, per caller per minute. */
  rateLimitPerMinute?: number;
  /** Brings tools' requests for input to open chat streams; without it, nobody is asked. */
  inputBroker?: InputBroker;
  /**
   * TRACE_VIEWER_URL, already checked by env.ts: an http(s) URL holding `{traceId}`. It is relayed
   * as it is; the page fills in the trace id and checks the result again before it makes a link.
   */
  traceViewerUrl?: string;
  /**
   * Where the sandbox proxy for MCP Apps views listens (`views/sandbox-server.ts`): its port on the
   * page's host name, or a public origin. Without it the page shows that a call has a view but
   * cannot draw it.
   */
  viewSandbox?: ViewSandboxLocation;
  /** A view's resource reads and tool calls, together, per caller per minute. */
  viewCallsPerMinute?: number;
  /** How long a view's tool call may go without an answer or progress (AGENT_TOOL_TIMEOUT_MS). */
  toolTimeoutMs?: number;
}

/** Where the chat page finds the sandbox proxy: `origin` when set, else its own host name at `port`. */
export interface ViewSandboxLocation {
  port: number;
  origin?: string;
}

/** The body of `GET /api/status`: the start-up as `startup.ts` tells it, and how to link a trace. */
export interface StatusBody extends AgentStatus {
  /** The trace viewer's link template with `{traceId}` in it, or null when none is set. */
  traceViewerUrl: string | null;
  /** The sandbox proxy for MCP Apps views, or null when the agent runs none. */
  viewSandbox: { port: number; origin: string | null } | null;
}

/** What `POST /api/chat` answers, and the data of the stream's final `done` event. */
export interface ChatAnswer {
  answer: string;
  conversationId: string;
  toolCalls: TurnResult['toolCalls'];
  serverLogs: TurnResult['serverLogs'];
  /** The turn's OpenTelemetry trace (32 hex digits), or null with telemetry off. */
  traceId: string | null;
}

/**
 * Conversations are kept per caller: the agent stores them under `<caller>/<id>`, so one caller
 * who learns another's conversation id still cannot read or continue that conversation.
 */
function scopedConversation(caller: Caller, id: string | undefined): string | undefined {
  if (caller.id === 'local') return id;
  return `${caller.id}/${id ?? randomUUID()}`;
}

function chatAnswer(result: TurnResult): ChatAnswer {
  return {
    answer: result.answer,
    conversationId: result.conversationId.slice(result.conversationId.lastIndexOf('/') + 1),
    toolCalls: result.toolCalls,
    serverLogs: result.serverLogs,
    traceId: result.traceId ?? null,
  };
}

/**
 * An agent that is already connected (`agent`, `hub`, `model`), or a start-up still under way,
 * which `index.ts` uses so the page can show the sign-in link while the agent connects.
 */
export type AgentAppOptions = CommonAppOptions & (ReadyAgent | { startup: AgentStartup });

export function createAgentApp(options: AgentAppOptions): Express {
  const { logger, inputBroker } = options;
  const traceViewerUrl = options.traceViewerUrl ?? null;
  const viewSandbox = options.viewSandbox
    ? { port: options.viewSandbox.port, origin: options.viewSandbox.origin ?? null }
    : null;
  const startup = 'startup' in options ? options.startup : readyStartup(options);
  const access = options.access ?? createApiAccess();
  const perMinute = options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  const app = express();
  app.disable('x-powered-by');
  app.use(hostHeaderValidation([...LOCALHOST_NAMES, ...(options.allowedHosts ?? [])]));
  app.use(sameOriginOnly(options.allowedOrigins));
  // Before the body is read: a stranger's body is never parsed, and a form is refused unread.
  app.use('/api', requireCaller(access), jsonBodiesOnly);
  app.use(express.json({ limit: MAX_BODY_BYTES, strict: false }));
  app.get('/', oneTimeLink(access));
  // Tests run from src/ before any build: without the page, the API still works.
  if (existsSync(WEB_DIR)) {
    const page = express.static(WEB_DIR, { index: 'index.html' });
    app.use((req, res, next) =>
      req.method === 'GET' || req.method === 'HEAD' ? page(req, res, next) : next(),
    );
  }

  // Healthy means "can chat": 503 while connecting (or waiting for a person to sign in) and after a
  // failed start, so whoever waits on /health (docker, `pnpm start:secure`) waits for a working agent.
  // Docker's healthcheck has no token: a stranger learns up or not, a caller also what is connected.
  app.get('/health', (req, res) => {
    const ready = startup.ready();
    if (access.secured && !callerFrom(access, req)) {
      return void res
        .status(ready ? 200 : 503)
        .json({ status: ready ? 'ok' : startup.status().state, ready: !!ready });
    }
    if (!ready) {
      const { state, error } = startup.status();
      return void res
        .status(503)
        .json({ status: state, ready: false, ...(error !== undefined && { error }) });
    }
    const { hub, model } = ready;
    res.json({ status: 'ok', ready: true, model, servers: hub.servers(), tools: hub.tools().length });
  });

  app.get('/api/status', (_req, res) => {
    // The page polls this while starting; a cached answer would hide the sign-in link or the change to ready.
    const body: StatusBody = { ...startup.status(), traceViewerUrl, viewSandbox };
    res.set('cache-control', 'no-store').json(body);
  });

  // Everything below needs the connected agent.
  const whenReady: RequestHandler = (_req, res, next) => {
    if (startup.ready()) return next();
    const { state, signIn, error } = startup.status();
    res
      .status(503)
      .set('retry-after', '2')
      .json({
        error:
          state === 'failed'
            ? `The agent could not start: ${error ?? 'see its log'}`
            : signIn
              ? `The agent is waiting for you to sign in to "${signIn.server}": open the link on the page.`
              : 'The agent is still connecting to its MCP servers; try again in a moment.',
        state,
      });
  };
  const readyAgent = (): ReadyAgent => {
    const ready = startup.ready();
    // whenReady ran first; a start-up never goes back from ready.
    if (!ready) throw new Error('the agent is not ready');
    return ready;
  };

  app.get('/api/tools', whenReady, async (_req, res) => {
    const { hub } = readyAgent();
    // Re-read any server that sent tools/list_changed, so the page's tools panel follows the server.
    await hub.refresh().catch((error: unknown) => logger.warn({ err: error }, 'tool refresh failed'));
    res.json({ tools: hub.tools() });
  });

  // The page's live view of the catalogue: tools, views and a dev server's status, pushed as they change.
  app.get('/api/catalogue/events', whenReady, catalogueFeed({ hub: () => readyAgent().hub, logger }));

  // One bucket for both chat routes: a turn costs the same either way.
  const chatLimit = perCallerLimit(perMinute, 'chat turns');
  const inputLimit = perCallerLimit(perMinute, 'answers to requests for input');
  /** Runs a turn as its caller, so its requests for input reach that caller only (`input-broker.ts`). */
  const runAs = <T>(caller: Caller, listener: InputListener | undefined, turn: () => Promise<T>) =>
    inputBroker ? inputBroker.runAs({ caller: caller.id, ...(listener && { listener }) }, turn) : turn();

  app.post('/api/chat', chatLimit, whenReady, async (req, res) => {
    const parsed = ChatRequest.safeParse(req.body);
    if (!parsed.success) return badRequest(res, parsed.error);
    const { agent } = readyAgent();
    const caller = callerOf(res);
    const conversationId = scopedConversation(caller, parsed.data.conversationId);
    // A client that hangs up before the answer stops the turn, and with it any task it waits on.
    const dropped = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) dropped.abort(new Error('The client closed the request.'));
    });
    try {
      const result = await runAs(caller, undefined, () =>
        agent.ask(parsed.data.message, { conversationId, signal: dropped.signal }),
      );
      res.json(chatAnswer(result));
    } catch (error) {
      if (!dropped.signal.aborted) sendFailure(res, error, logger);
    }
  });

  app.post('/api/chat/stream', chatLimit, whenReady, async (req, res) => {
    const parsed = ChatRequest.safeParse(req.body);
    if (!parsed.success) return badRequest(res, parsed.error);
    const { agent } = readyAgent();
    const caller = callerOf(res);
    // This stream is the only place this turn's requests for input are shown.
    const { send, signal, ask } = openEventStream(res);
    try {
      const result = await runAs(caller, ask, () =>
        agent.ask(parsed.data.message, {
          conversationId: scopedConversation(caller, parsed.data.conversationId),
          signal,
          events: {
            onTextDelta: (text) => send('text', { text }),
            onToolStart: (call) => send('tool_start', call),
            onToolProgress: (id, progress) => send('tool_progress', { id, ...progress }),
            // A call the server made a task: each new status, so the page shows it working.
            onToolTask: (id, task) => send('tool_task', { id, task }),
            onToolEnd: (trace) => send('tool_end', trace),
          },
        }),
      );
      send('done', chatAnswer(result));
    } catch (error) {
      send('error', { message: failureMessage(error, logger) });
    }
    res.end();
  });

  app.use(
    '/api/views',
    viewRoutes({
      hub: () => readyAgent().hub,
      whenReady,
      logger,
      callsPerMinute: options.viewCallsPerMinute ?? DEFAULT_VIEW_CALLS_PER_MINUTE,
      toolTimeoutMs: options.toolTimeoutMs ?? DEFAULT_VIEW_TOOL_TIMEOUT_MS,
      ...(inputBroker && { inputBroker }),
    }),
  );

  app.post('/api/input/:id', inputLimit, (req, res) => {
    const id = String(req.params.id ?? '');
    const parsed = InputAnswerBody.safeParse(req.body);
    if (!INPUT_ID.test(id) || !parsed.success) {
      return void res.status(400).json({
        error: 'Send {"action": "accept" | "decline" | "cancel", "content"?: {...}} to a valid id.',
        problems: parsed.success
          ? ['id: 1-100 letters, digits, "-" or "_"']
          : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`),
      });
    }
    // Another caller's request answers 404 too: its id is not theirs to learn about.
    if (!inputBroker?.answer(id, parsed.data, callerOf(res).id)) {
      return void res
        .status(404)
        .json({ error: 'No such request for input for you: it was answered, has expired, or is not yours.' });
    }
    res.json({ ok: true });
  });

  app.use(((error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const type = typeof error === 'object' && error !== null && 'type' in error ? String(error.type) : '';
    if (type === 'entity.too.large') return void res.status(413).json({ error: 'Request body too large.' });
    if (type === 'entity.parse.failed')
      return void res.status(400).json({ error: 'The body is not valid JSON.' });
    // Other body-parser refusals (an unsupported charset or encoding, a body cut short) carry a 4xx
    // status and a message meant for the client; express's default would answer with an HTML page.
    const status =
      typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : 500;
    if (status >= 400 && status < 500 && type !== '') {
      return void res.status(status).json({ error: error instanceof Error ? error.message : 'Bad request.' });
    }
    logger.error({ err: error }, 'request failed');
    return void res.status(500).json({ error: 'The agent failed unexpectedly; see its log.' });
  }) satisfies ErrorRequestHandler);

  return app;
}

function badRequest(res: Response, error: z.ZodError): void {
  res.status(400).json({
    error: 'Send {"message": "...", "conversationId"?: "..."}.',
    problems: error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`),
  });
}

/** Model API errors already carry a message for the person (e.g. "check OPENAI_API_KEY"); anything else is a bug. */
function failureMessage(error: unknown, logger: Logger): string {
  if (error instanceof ModelError) return error.message;
  logger.error({ err: error }, 'chat failed');
  return 'The agent failed unexpectedly; see its log.';
}

function sendFailure(res: Response, error: unknown, logger: Logger): void {
  res.status(error instanceof ModelError ? 502 : 500).json({ error: failureMessage(error, logger) });
}
