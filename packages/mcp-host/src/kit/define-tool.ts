/**
 * @module kit/define-tool
 * The one way a catalogue's tool is declared. `defineTool` checks at compile time that a tool only
 * returns `ok(...)` data matching its `output` schema, a `fail(...)`, or an `inputRequired(...)`
 * round, and `register` wraps the handler so an unexpected exception becomes a safe `isError`
 * result instead of leaking a stack. The wrapper also checks the tool's declared scopes against the
 * request's own token: the HTTP layer checks them first, and this second check means a route that
 * forgets to cannot run a tool the token was not granted. A tool with a `ui` option also declares an
 * MCP Apps view (`_meta.ui`) and registers through ext-apps' `registerAppTool`; its results stay the same.
 */

import { type CallToolResult, fail, failFromError, type StructuredToolResult } from '@mcp-workshop/shared';
import type { McpUiToolMeta } from '@modelcontextprotocol/ext-apps';
import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import {
  type AuthInfo,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type InputRequiredResult,
  type JsonSchemaType,
  type LoggingLevel,
  type McpServer,
  PROTOCOL_VERSION_META_KEY,
  type ProtocolEra,
  type ServerContext,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { missingScopes, ownerOf } from '../auth/caller.js';
import type { Logger } from '../logger.js';
import { callAsTask, type TaskSupport } from '../tasks/methods.js';
import { cacheJsonSchema, lazyJsonSchema } from './cached-schema.js';
import type { CatalogueTool, RegisterContext } from './catalogue.js';
import { portableJsonSchema } from './portable-schema.js';
import { REQUIRED_SCOPES_META_KEY } from './scopes.js';
import { taskWork } from './task-work.js';

/**
 * What every tool handler gets besides its arguments, whether it answers the request itself or
 * runs later as an MCP Task (a tool with `task` set, see {@link ToolSpec}).
 */
export interface RunContext<Deps> {
  /** What the catalogue's `services` built: its weather source, its to-do list, its clock. */
  deps: Deps;
  /**
   * Aborted when the client cancels the call or goes away, or, for a task, when it is cancelled
   * or its process stops; pass it to anything slow.
   */
  signal: AbortSignal;
  /**
   * The request's verified token, or undefined when sign-in is off (stdio, HTTP without
   * `MCP_AUTH_ISSUER`). Its scopes were already checked against the tool's `scopes`.
   */
  authInfo: AuthInfo | undefined;
  /** Whose data this call reads and writes (`auth/caller.ts`): the signed-in subject, or the one local user. */
  owner: string;
  /** `modern` for a 2026-07-28 request (it carries the per-request `_meta` envelope), else `legacy`. */
  era: ProtocolEra;
  /**
   * What the client declared it supports: the request's own envelope (modern) or its `initialize`
   * (legacy). Undefined when unknown, e.g. on a stateless legacy request that never initialized.
   */
  clientCapabilities: ClientCapabilities | undefined;
  /**
   * Sends a `notifications/message` for this call (logger `mcp-workshop/<tool>`), as far as the
   * client asked for logs: the SDK drops levels below `logging/setLevel` (legacy) or the
   * request's `logLevel` (modern, where nothing is sent without one). Never throws: a log must
   * not break a tool. Logs reach the client, so no secrets or personal data: ids and counts,
   * never task titles.
   */
  log(level: LoggingLevel, message: string, data?: Record<string, unknown>): Promise<void>;
  /**
   * Reports how far the work is: a `notifications/progress` when the client asked for progress,
   * or the task's `statusMessage` when the call runs as a task. Never throws.
   */
  progress(done: number, total: number, message: string): Promise<void>;
  /**
   * Does one piece of the work. As a task, its (JSON) value is recorded under `key`, and a task
   * resumed after a restart gets it back without doing the piece again; otherwise it just runs `work`.
   */
  step<T>(key: string, work: () => T | Promise<T>): Promise<T>;
}

/** What a tool that answers its request itself gets: the run context plus the SDK's request. */
export interface ToolContext<Deps> extends RunContext<Deps> {
  /** The SDK's per-request context (progress token, `notify`, elicitation, MRTR input responses). */
  mcp: ServerContext;
}

/** A failure result, as `fail()` builds it. */
export type FailResult = CallToolResult & { isError: true };

interface ToolSpecBase<Input extends z.ZodObject, Output extends z.ZodObject> {
  /** snake_case, unique, `[A-Za-z0-9_.-]{1,128}`. */
  name: string;
  /** A short human label for client UIs. */
  title: string;
  /** Written for the model: what the tool does, when to use it, what it returns. */
  description: string;
  input: Input;
  /** Root must be an object: `structuredContent` is always a JSON object. */
  output: Output;
  annotations: ToolAnnotations;
  /**
   * OAuth scopes a caller's token must carry when the server requires sign-in (`MCP_AUTH_ISSUER`),
   * e.g. `[TASKS_WRITE]` from the catalogue's `scopes.ts`. Omit it for a tool any signed-in client may call.
   * `tools/list` shows it under `_meta["mcp-workshop/requiredScopes"]`.
   */
  scopes?: readonly string[];
  /**
   * MCP Apps (`io.modelcontextprotocol/ui`): the view a host draws the result in (`resourceUri`, a
   * `ui://` resource of the catalogue's views) and who may call the tool (`visibility`: `['app']`
   * hides it from the model, so only a view calls it). Only `tools/list` changes; results do not.
   */
  ui?: ToolUi;
}

/** A tool that answers every call itself, at once. */
interface RequestToolSpec<Input extends z.ZodObject, Output extends z.ZodObject, Deps>
  extends ToolSpecBase<Input, Output> {
  task?: undefined;
  /**
   * An `InputRequiredResult` (from the SDK's `inputRequired()`) asks a 2026-07-28 client for input
   * and is passed to the SDK untouched; the client retries the call with the answers.
   */
  run(
    args: z.output<Input>,
    context: ToolContext<Deps>,
  ): Promise<StructuredToolResult<z.input<Output>> | FailResult | InputRequiredResult>;
}

/**
 * A tool that can run as an MCP Task (SEP-2663): for a 2026-07-28 client that declares
 * `io.modelcontextprotocol/tasks` the call answers at once with a task id, and the work runs in the
 * background, stored so it survives a restart (`context.step` records each finished piece). Other
 * clients get the answer as usual when `task` is `optional`; `required` refuses them (-32021).
 */
export interface TaskToolSpec<Input extends z.ZodObject, Output extends z.ZodObject, Deps>
  extends ToolSpecBase<Input, Output> {
  task: TaskSupport;
  run(
    args: z.output<Input>,
    context: RunContext<Deps>,
  ): Promise<StructuredToolResult<z.input<Output>> | FailResult>;
}

export type ToolSpec<Input extends z.ZodObject, Output extends z.ZodObject, Deps> =
  | RequestToolSpec<Input, Output, Deps>
  | TaskToolSpec<Input, Output, Deps>;

/** A tool's MCP Apps metadata, published as `_meta.ui` in `tools/list`. */
export type ToolUi = Pick<McpUiToolMeta, 'resourceUri' | 'visibility'>;

/** A tool ready to be listed in a catalogue. Its input and output types are erased, so tools can share one list. */
export type DefinedTool<Deps> = CatalogueTool<Deps>;

/**
 * Declares a tool whose handlers get `Deps`. A catalogue binds its own deps type once
 * (`toolKit<MyDeps>()`), so its tools write `defineTool({...})` with no type arguments.
 */
export function defineTool<Deps, Input extends z.ZodObject, Output extends z.ZodObject>(
  spec: ToolSpec<Input, Output, Deps>,
): DefinedTool<Deps> {
  // Everything below is built once per process and shared by every server instance, which the
  // HTTP endpoint builds per session and per request. The input's JSON Schema is converted once
  // (see cached-schema.ts); zod still validates, and applies defaults to, every call's arguments.
  // Widened to the base type so the SDK's conditional callback type resolves; `run` keeps the precise one.
  const inputSchema: StandardSchemaWithJSON = cacheJsonSchema(spec.input);
  // Published as plain JSON Schema with nullables spelled as anyOf (see portable-schema.ts);
  // the SDK still validates every structuredContent against it before it leaves the server.
  // Converted at the first list and compiled at the first call, so start-up pays for neither.
  const outputSchema = lazyJsonSchema<z.input<Output>>(
    () => portableJsonSchema(z.toJSONSchema(spec.output, { io: 'output' })) as JsonSchemaType,
  );
  const annotations: ToolAnnotations = Object.freeze({ title: spec.title, ...spec.annotations });
  const scopes = Object.freeze([...(spec.scopes ?? [])]);
  // Shown in tools/list so a client knows which scope to ask for before a call is refused.
  const _meta = Object.freeze({
    [REQUIRED_SCOPES_META_KEY]: scopes,
    ...(spec.ui && { ui: Object.freeze({ ...spec.ui }) }),
  });
  const task = spec.task ? spec : undefined;
  return {
    name: spec.name,
    scopes,
    // The host hands the runtime this work when it builds the catalogue, and again on each reload.
    ...(task && { taskWork: ({ deps, logger }: RegisterContext<Deps>) => taskWork(task, deps, logger) }),
    register(server, { deps, logger, runs }) {
      registerTool(
        server,
        spec.name,
        { title: spec.title, description: spec.description, inputSchema, outputSchema, annotations, _meta },
        async (args: unknown, mcp: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
          const context = createToolContext(spec.name, server, deps, mcp);
          // No auth info means sign-in is off: with it on, the HTTP layer lets no call through without a token.
          const missing = context.authInfo ? missingScopes(scopes, context.authInfo.scopes) : [];
          if (missing.length > 0) {
            logger.warn({ tool: spec.name, missing }, 'tool call refused: a scope is missing');
            return fail(missingScopesMessage(spec.name, missing));
          }
          if (spec.task) {
            // Outside the try below: a -32021 for a task-only tool is the client's to fix, not a tool failure.
            const created = await callAsTask(runs, mcp, {
              tool: spec.name,
              arguments: args as Record<string, unknown>,
              support: spec.task,
            });
            // The SDK passes a CreateTaskResult through as it is (it types the handler for results only).
            if (created) return created as unknown as CallToolResult;
          }
          try {
            const result = await spec.run(args as z.output<Input>, context);
            // With telemetry on, this line carries the call's trace_id and span_id (logger.ts).
            logger.debug({ tool: spec.name, isError: result.isError === true }, 'tool call answered');
            return result;
          } catch (error) {
            if (mcp.mcpReq.signal.aborted) {
              // Cancelled, not broken: the SDK sends no response for a cancelled request, so there
              // is nobody to tell; the reason (e.g. AbortError from a sleep) is not a bug to log.
              logger.info({ tool: spec.name }, 'tool call cancelled');
              return fail('The call was cancelled.');
            }
            const { result, ref } = failFromError(error);
            if (ref) logger.error({ err: error, tool: spec.name, ref }, 'tool threw an unexpected error');
            // The message stays generic: a ToolError's text can quote user input, and the result has it anyway.
            // A bug is an error; a failure the model can fix (a ToolError) is only a warning.
            await context.log(
              ref ? 'error' : 'warning',
              ref
                ? `Failed with an internal error (ref ${ref})`
                : 'Failed with an error the model can act on',
              ref ? { ref } : undefined,
            );
            return result;
          }
        },
      );
    },
  };
}

/**
 * `server.registerTool`, or ext-apps' `registerAppTool` for a tool with `_meta.ui`: the same
 * registration, plus the older `_meta["ui/resourceUri"]` key for hosts from before `_meta.ui`.
 */
function registerTool(
  server: McpServer,
  name: string,
  config: {
    title: string;
    description: string;
    inputSchema: StandardSchemaWithJSON;
    outputSchema: StandardSchemaWithJSON;
    annotations: ToolAnnotations;
    _meta: Readonly<Record<string, unknown>> & { ui?: ToolUi };
  },
  handler: (args: unknown, mcp: ServerContext) => Promise<CallToolResult | InputRequiredResult>,
): void {
  const { ui } = config._meta;
  if (ui) registerAppTool(server, name, { ...config, _meta: { ...config._meta, ui } }, handler);
  else server.registerTool(name, config, handler);
}

/** What a caller whose token lacks `missing` is told: which scopes, and that signing in again helps. */
export function missingScopesMessage(tool: string, missing: readonly string[]): string {
  const names = missing.join(' ');
  return (
    `${tool} needs the OAuth scope${missing.length === 1 ? '' : 's'} ${names}, which this sign-in did not grant. ` +
    `Sign in again and grant ${names} to use it.`
  );
}

function createToolContext<Deps>(
  name: string,
  server: McpServer,
  deps: Deps,
  mcp: ServerContext,
): ToolContext<Deps> {
  const signal = mcp.mcpReq.signal;
  // The SDK types the envelope's keys loosely; the key constants are its own.
  const envelope = mcp.mcpReq.envelope as Record<string, unknown> | undefined;
  const era: ProtocolEra = envelope?.[PROTOCOL_VERSION_META_KEY] === undefined ? 'legacy' : 'modern';
  const loggerName = `mcp-workshop/${name}`;
  const authInfo = mcp.http?.authInfo;
  return {
    deps,
    signal,
    mcp,
    authInfo,
    owner: ownerOf(authInfo),
    era,
    clientCapabilities:
      era === 'modern'
        ? (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
        : server.server.getClientCapabilities(),
    async log(level, message, data) {
      // Notifications belong to a live request; after cancellation there is no stream to carry them.
      if (signal.aborted) return;
      try {
        await mcp.mcpReq.log(level, { ...data, message }, loggerName);
      } catch {
        // The client went away mid-call, or its transport refused: the tool's answer matters more.
      }
    },
    progress: progressReporter(mcp, signal),
    // Answering the request itself, nothing is recorded: the work just runs.
    step: async (_key, work) => work(),
  };
}

/**
 * Sends `notifications/progress` when the client asked for it (a `progressToken` in `_meta`).
 * `notify` ties the notification to this request, so over HTTP it travels on the request's own stream.
 */
function progressReporter(mcp: ServerContext, signal: AbortSignal): RunContext<unknown>['progress'] {
  const progressToken = mcp.mcpReq._meta?.progressToken;
  return async (progress, total, message) => {
    // Progress is only for a live request (spec: it stops when the request ends).
    if (progressToken === undefined || signal.aborted) return;
    try {
      await mcp.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, total, message },
      });
    } catch {
      // A lost progress update must not fail the call; a client that left aborts the signal anyway.
    }
  };
}

/** `defineTool` with the catalogue's deps type bound once: what a catalogue's tools import. */
export function toolKit<Deps>() {
  return {
    defineTool: <Input extends z.ZodObject, Output extends z.ZodObject>(
      spec: ToolSpec<Input, Output, Deps>,
    ): DefinedTool<Deps> => defineTool<Deps, Input, Output>(spec),
  };
}

export type { Logger };
