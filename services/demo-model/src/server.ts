/**
 * @module server
 * The offline demo model as an OpenAI-compatible HTTP app: `/v1/models`, `/v1/chat/completions`
 * and `/v1/responses`, streaming or not, answered by the scripted planner (`planner.ts`), not a
 * language model. A factory with no listen; `start.ts` listens. Test: `server.test.ts`.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import express, { type ErrorRequestHandler, type Express, type Response as HttpResponse } from 'express';
import type { FunctionTool } from 'openai/resources/responses/responses';
import type { z } from 'zod';
import {
  type CompletionMeta,
  chatChunks,
  chatCompletion,
  estimateTokens,
  type WireTurn,
} from './chat-wire.js';
import { planTurn } from './planner.js';
import {
  chatRequestSchema,
  chatToPlanInput,
  DemoRequestError,
  describeIssue,
  type ResponsesRequest,
  responsesRequestSchema,
  responsesToPlanInput,
} from './requests.js';
import { type ResponseMeta, responseEvents, responseObject } from './responses-wire.js';
import { DEMO_MODEL_ID, DEMO_MODEL_OWNER, type PlanInput } from './types.js';

/** Real requests are a few kilobytes; anything near this is a mistake or an attack. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * A short pause between stream events makes the streaming visible in a terminal or the web page.
 * An answer has at most a few hundred events, so a turn stays well under a few seconds.
 */
export const DEFAULT_CHUNK_DELAY_MS = 15;
/** When the model "existed", for `/v1/models`: a fixed date, so the listing is stable. */
const MODEL_CREATED = Math.floor(Date.UTC(2025, 0, 1) / 1000);

export interface DemoModelAppOptions {
  /** Pause between stream events, in ms; 0 sends a whole stream at once (tests). */
  chunkDelayMs?: number;
  /** The clock: what "today", "tomorrow" and "on Friday" mean, and the `created` stamps. Tests fix it. */
  now?: () => Date;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

function sendError(
  res: HttpResponse,
  status: number,
  message: string,
  param: string | null,
  code: string | null,
) {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  res.status(status).json({ error: { message, type, param, code } });
}

function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined) {
    throw new DemoRequestError('The request body must be JSON: send Content-Type: application/json.', {
      code: 'invalid_body',
    });
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const { message, param } = describeIssue(parsed.error);
  throw new DemoRequestError(message, { param, code: 'invalid_value' });
}

/** Plans the turn and gives each call its `call_…` id; token counts are estimates. */
function runTurn(input: PlanInput, promptChars: number): WireTurn {
  const plan = planTurn(input);
  const calls =
    plan.kind === 'tool_calls'
      ? plan.calls.map((call) => ({
          id: newId('call'),
          name: call.name,
          arguments: JSON.stringify(call.arguments),
        }))
      : [];
  const text = plan.kind === 'answer' ? plan.text : null;
  const outputChars =
    (text ?? '').length + calls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  return {
    text,
    calls,
    promptTokens: estimateTokens(promptChars),
    completionTokens: estimateTokens(outputChars),
  };
}

/** Writes server-sent events, pausing between them, and stops if the client goes away. */
async function sendStream(
  res: HttpResponse,
  events: ReadonlyArray<{ event?: string; data: unknown }>,
  delayMs: number,
): Promise<void> {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  for (const [index, { event, data }] of events.entries()) {
    if (closed) return;
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
    if (delayMs > 0 && index < events.length - 1) await sleep(delayMs);
  }
  res.end();
}

function responsesTools(request: ResponsesRequest): FunctionTool[] {
  return (request.tools ?? []).flatMap((tool) =>
    tool.type === 'function' && tool.name
      ? [
          {
            type: 'function' as const,
            name: tool.name,
            description: tool.description ?? null,
            parameters: tool.parameters ?? null,
            strict: tool.strict ?? null,
          },
        ]
      : [],
  );
}

/** The demo model's HTTP app. It keeps no state between requests. */
export function createDemoModelApp(options: DemoModelAppOptions = {}): Express {
  const delayMs = Math.max(0, options.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS);
  const clock = options.now ?? (() => new Date());
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: MAX_BODY_BYTES }));

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', model: DEMO_MODEL_ID, kind: 'offline scripted stand-in, not a language model' });
  });

  const model = { id: DEMO_MODEL_ID, object: 'model', created: MODEL_CREATED, owned_by: DEMO_MODEL_OWNER };
  app.get('/v1/models', (_req, res) => {
    res.json({ object: 'list', data: [model] });
  });
  // Any model name is accepted, so any name "exists"; the answer always says which one really runs.
  app.get('/v1/models/:id', (_req, res) => {
    res.json(model);
  });

  app.post('/v1/chat/completions', async (req, res) => {
    const request = parseBody(chatRequestSchema, req.body);
    const now = clock();
    const turn = runTurn({ ...chatToPlanInput(request), now }, JSON.stringify(request.messages).length);
    const meta: CompletionMeta = {
      id: `chatcmpl-${randomBytes(12).toString('hex')}`,
      created: unixSeconds(now),
    };
    if (!request.stream) {
      res.json(chatCompletion(turn, meta));
      return;
    }
    const includeUsage = request.stream_options?.include_usage === true;
    const chunks = chatChunks(turn, meta, includeUsage).map((data) => ({ data }));
    await sendStream(res, [...chunks, { data: '[DONE]' }], delayMs);
  });

  app.post('/v1/responses', async (req, res) => {
    const request = parseBody(responsesRequestSchema, req.body);
    const now = clock();
    const turn = runTurn({ ...responsesToPlanInput(request), now }, JSON.stringify(request.input).length);
    const meta: ResponseMeta = {
      id: newId('resp'),
      createdAt: unixSeconds(now),
      instructions: request.instructions ?? null,
      tools: responsesTools(request),
      messageId: newId('msg'),
      callItemIds: turn.calls.map(() => newId('fc')),
    };
    if (!request.stream) {
      res.json(responseObject(turn, meta, 'completed'));
      return;
    }
    const events = responseEvents(turn, meta).map((data) => ({ event: data.type, data }));
    await sendStream(res, events, delayMs);
  });

  app.use((req, res) => {
    sendError(res, 404, `Unknown request URL: ${req.method} ${req.path}.`, null, 'unknown_url');
  });

  const onError: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (error instanceof DemoRequestError) {
      sendError(res, error.status, error.message, error.param, error.code);
      return;
    }
    // body-parser marks its errors with an HTTP status and a `type`, e.g. "entity.too.large".
    const status =
      typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : 500;
    const type = typeof error === 'object' && error !== null && 'type' in error ? String(error.type) : '';
    if (status === 413) {
      sendError(
        res,
        413,
        `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
        null,
        'request_too_large',
      );
    } else if (type === 'entity.parse.failed') {
      sendError(res, 400, 'The request body is not valid JSON.', null, 'invalid_json');
    } else if (status >= 400 && status < 500) {
      sendError(res, status, error instanceof Error ? error.message : 'Bad request.', null, null);
    } else {
      console.error(error);
      sendError(
        res,
        500,
        'The offline demo model failed on this request; see its log.',
        null,
        'server_error',
      );
    }
  };
  app.use(onError);
  return app;
}
