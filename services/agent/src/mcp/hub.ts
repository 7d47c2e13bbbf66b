/**
 * @module mcp/hub
 * `createMcpHub()` puts every connected MCP server behind the `McpHub` contract in `types.ts`:
 * one tool list with unique names, calls with timeouts that progress resets, each call's own logs,
 * progress and requests for input, and failures returned as data; and every server's skills, read
 * through their own connection (`skills.ts`). A call the server makes a task (MCP Tasks) is
 * followed to its end (`task-wait.ts`). Connections come from `connect.ts`.
 */
import { type CallToolResult, validateToolResult } from '@mcp-workshop/shared';
import {
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  OAuthError,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type {
  CallFailure,
  CallOptions,
  CallOutcome,
  DiscoveredTool,
  InputEvent,
  LogEvent,
  McpHub,
  ProgressEvent,
  ServerSkill,
  TaskInfo,
} from '../types.js';
import { toViewResource, VIEW_READ_TIMEOUT_MS, ViewError } from '../views/read-view.js';
import { visibleToApp, visibleToModel } from '../views/ui-meta.js';
import { type CallRouter, createCallRouter, type RoutedCall } from './call-routing.js';
import type { ConnectedServer, ListKind, McpLogger } from './connect.js';
import { listServerTools, type QualifiedTool, qualifyTools } from './discover.js';
import { describeCause } from './retry.js';
import { filesOf, NO_SKILLS, summarizeSkill } from './skills.js';
import { takeTaskHandoff } from './task-handoff.js';
import { waitForTask } from './task-wait.js';

/**
 * Hard cap on one call however often progress resets its timeout: a tool that reports progress
 * forever must not hold the conversation forever.
 */
export const MAX_CALL_TOTAL_MS = 10 * 60_000;

/**
 * The least severe server log level a call asks for on a 2026-07-28 connection, where a request
 * gets logs only if it names a level. `info` shows what a tool did without its debug chatter.
 */
export const CALL_LOG_LEVEL: LoggingLevel = 'info';

/**
 * Before each round of a 2026-07-28 `input_required` flow the SDK client calls the request's
 * `onprogress` itself with this wording (`runInputRequiredDriver`). It is not the server's
 * progress, so the trace leaves it out; the request for input is recorded on its own.
 */
const SDK_INPUT_ROUND_PROGRESS = /^Fulfilling input required by '[^']*' \(round \d+\)$/;

/** One server's `list_changed`, as the hub passes it on. */
export interface ListChange {
  server: string;
  kind: ListKind;
}

/** The hub's tool list: every tool carries its `qualifiedName`. */
export interface QualifiedMcpHub extends McpHub {
  tools(): readonly QualifiedTool[];
  /**
   * Calls `listener` with each `list_changed` a server sends (tools or resources), as it comes;
   * the returned function stops that. The tool set itself still changes only in `refresh()`.
   */
  onListChanged(listener: (change: ListChange) => void): () => void;
}

/** Builds the hub over already connected servers. Closing the hub closes them. */
export function createMcpHub(servers: readonly ConnectedServer[], logger: McpLogger): QualifiedMcpHub {
  // Each server with its router, which ties every log and request for input to its own call.
  const byName = new Map<string, { server: ConnectedServer; router: CallRouter }>();
  const changeListeners = new Set<(change: ListChange) => void>();
  for (const server of servers) {
    if (byName.has(server.info.name)) throw new Error(`Two MCP servers are named "${server.info.name}"`);
    const router = createCallRouter(server.info.name, logger);
    server.hooks.onLog = router.log;
    server.hooks.onInput = router.input;
    server.hooks.onListChanged = (kind) => {
      for (const listener of changeListeners) listener({ server: server.info.name, kind });
    };
    byName.set(server.info.name, { server, router });
  }

  const listed = new Map<string, readonly DiscoveredTool[]>(servers.map((s) => [s.info.name, s.tools]));
  const qualify = (): readonly QualifiedTool[] =>
    Object.freeze(
      qualifyTools(
        // App-only tools are for their views: the model never sees them.
        servers.map((s) => ({
          server: s.info.name,
          tools: (listed.get(s.info.name) ?? []).filter((tool) => visibleToModel(tool.ui)),
        })),
        (message, details) => logger.warn(details, message),
      ),
    );
  let current = qualify();

  async function relist(): Promise<boolean> {
    const dirty = servers.filter((server) => server.hooks.toolsChanged);
    if (dirty.length === 0) return false;
    let changed = false;
    await Promise.all(
      dirty.map(async (server) => {
        const name = server.info.name;
        // Cleared first, so a change announced while we list is picked up next time.
        server.hooks.toolsChanged = false;
        try {
          const tools = await listServerTools(server.client, name);
          if (JSON.stringify(tools) !== JSON.stringify(listed.get(name))) {
            listed.set(name, tools);
            changed = true;
          }
        } catch (error) {
          server.hooks.toolsChanged = true;
          logger.warn(
            { server: name, reason: describeCause(error) },
            'could not re-list tools; keeping the old list',
          );
        }
      }),
    );
    if (changed) {
      current = qualify();
      logger.info({ tools: current.length }, 'MCP tool list changed');
    }
    return changed;
  }

  let refreshing: Promise<boolean> | undefined;
  // Listed once, at connect time: a server's skills change with its releases, not mid-conversation.
  const skills: readonly ServerSkill[] = Object.freeze(
    servers.flatMap((server) =>
      (server.skills ?? NO_SKILLS).entries.map((entry) => ({
        server: server.info.name,
        ...summarizeSkill(entry),
        files: filesOf(entry),
      })),
    ),
  );

  async function callTool(
    serverName: string,
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const progress: ProgressEvent[] = [];
    const logs: LogEvent[] = [];
    const inputs: InputEvent[] = [];
    // Set when the server made the call a task (MCP Tasks): what the agent saw of it.
    let task: TaskInfo | undefined;
    const finish = (outcome: { result: CallToolResult } | { failure: CallFailure }): CallOutcome => ({
      ...outcome,
      durationMs: elapsed(),
      progress,
      logs,
      inputs,
      ...(task && { task }),
    });

    const connection = byName.get(serverName);
    if (!connection) {
      return finish({
        failure: { kind: 'transport', message: `No MCP server named "${serverName}" is connected.` },
      });
    }
    if (options.signal?.aborted) return finish({ failure: abortedFailure() });

    const { server } = connection;
    const call: RoutedCall = {
      log(message) {
        const event: LogEvent = { ...message, atMs: elapsed() };
        logs.push(event);
        options.onLog?.(event);
      },
      input(request, answer) {
        inputs.push({
          message: request.message,
          action: answer.action,
          ...(answer.action === 'decline' && answer.notAsked !== undefined && { notAsked: answer.notAsked }),
          atMs: elapsed(),
        });
      },
      onServerLog: options.onServerLog,
    };
    try {
      const askForLogs =
        server.info.era === 'modern' && server.client.getServerCapabilities()?.logging !== undefined;
      const request = {
        name,
        arguments: args,
        ...(askForLogs && { _meta: { [LOG_LEVEL_META_KEY]: CALL_LOG_LEVEL } }),
      };
      const send = () =>
        server.client.callTool(request, {
          timeout: options.timeoutMs,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: Math.max(options.timeoutMs, MAX_CALL_TOTAL_MS),
          ...(options.signal && { signal: options.signal }),
          onprogress: ({ progress: done, total, message }) => {
            if (total === undefined && message !== undefined && SDK_INPUT_ROUND_PROGRESS.test(message))
              return;
            const event: ProgressEvent = {
              progress: done,
              ...(total !== undefined && { total }),
              ...(message !== undefined && { message }),
              atMs: elapsed(),
            };
            progress.push(event);
            options.onProgress?.(event);
          },
        });
      // Sent as the call, so what comes back on its stream is told apart from other calls'.
      let result: unknown = await connection.router.run(call, send).catch(async (error: unknown) => {
        // A person was just sent to sign in again (step-up to more scopes): once they have, send
        // the call once more. Anything else, or a second refusal, is the call's failure.
        if (!(error instanceof UnauthorizedError) || !(await server.signInAgain?.(options.signal)))
          throw error;
        return connection.router.run(call, send);
      });
      const created = takeTaskHandoff(result);
      if (created !== undefined) {
        // The server made the call a task: its result comes from following it (`task-wait.ts`).
        const waited = await waitForTask(server.client, created, {
          server: serverName,
          timeoutMs: options.timeoutMs,
          ...(options.signal && { signal: options.signal }),
          ...(options.onTask && { onTask: options.onTask }),
        });
        task = waited.task;
        if ('failure' in waited) {
          logger.debug({ server: serverName, tool: name, failure: waited.failure }, 'MCP task failed');
          return finish({ failure: waited.failure });
        }
        result = waited.result;
      }
      const check = validateToolResult(result);
      if (!check.ok) {
        logger.warn(
          { server: serverName, tool: name, problems: check.problems },
          'tool result does not match CallToolResult; passing it on unchanged',
        );
      }
      // Passed on as received: the model-facing rendering copes with malformed results.
      return finish({ result: result as CallToolResult });
    } catch (error) {
      const failure = classifyFailure(error, options, name);
      logger.debug({ server: serverName, tool: name, failure }, 'MCP tool call failed');
      return finish({ failure });
    }
  }

  const hasView = (serverName: string, uri: string): boolean =>
    (listed.get(serverName) ?? []).some((tool) => tool.ui?.resourceUri === uri);

  async function readView(serverName: string, uri: string, signal?: AbortSignal) {
    const connection = byName.get(serverName);
    if (!connection || !hasView(serverName, uri)) {
      throw new ViewError('not_found', `No tool of a server named "${serverName}" has the view ${uri}.`);
    }
    const answer = await connection.server.client.readResource(
      { uri },
      { timeout: VIEW_READ_TIMEOUT_MS, ...(signal && { signal }) },
    );
    return toViewResource(serverName, uri, answer, (entry) =>
      logger.warn({ server: serverName, uri, entry }, 'view declared an origin that is not one; left out'),
    );
  }

  return {
    tools: () => current,
    appTool: (serverName, name) =>
      (listed.get(serverName) ?? []).find((tool) => tool.name === name && visibleToApp(tool.ui)),
    hasView,
    readView,
    skills: () => skills,
    async readSkill(serverName, uri, file, signal) {
      const serverSkills = byName.get(serverName)?.server.skills ?? NO_SKILLS;
      const entry = serverSkills.entries.find((skill) => skill.uri === uri);
      if (!entry) throw new Error(`The server "${serverName}" lists no skill ${uri}.`);
      return serverSkills.read(entry, file, signal);
    },
    refresh() {
      refreshing ??= relist().finally(() => {
        refreshing = undefined;
      });
      return refreshing;
    },
    callTool,
    onListChanged(listener) {
      changeListeners.add(listener);
      return () => void changeListeners.delete(listener);
    },
    servers: () => servers.map((server) => server.info),
    async close() {
      const results = await Promise.allSettled(servers.map((server) => server.close()));
      results.forEach((result, index) => {
        if (result.status === 'rejected') {
          logger.warn(
            { server: servers[index]?.info.name, err: result.reason },
            'closing an MCP server failed',
          );
        }
      });
    },
  };
}

/** Sorts a thrown error into the four kinds the loop tells the model about. */
export function classifyFailure(
  error: unknown,
  options: Pick<CallOptions, 'signal' | 'timeoutMs'>,
  tool = 'This tool',
): CallFailure {
  // The SDK reports an abort as a timeout, so the signal decides.
  if (options.signal?.aborted) return abortedFailure();
  const refusal = scopeRefusal(error);
  if (refusal !== undefined) {
    return {
      kind: 'not_allowed',
      message: `${tool} is not allowed: this agent's sign-in lacks the permission (OAuth scope) it needs (${refusal}). Do not call it again; tell the user it needs a sign-in with more rights.`,
    };
  }
  if (error instanceof ProtocolError) return { kind: 'jsonrpc', code: error.code, message: error.message };
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    const total = (error.data as { maxTotalTimeout?: number } | undefined)?.maxTotalTimeout;
    return {
      kind: 'timeout',
      message:
        total !== undefined
          ? `The tool was still running after ${total} ms, the most any call may take.`
          : `The tool sent no answer and no progress for ${options.timeoutMs} ms.`,
    };
  }
  return { kind: 'transport', message: describeCause(error) };
}

/**
 * The server said 403 insufficient_scope and the SDK's step-up could not fix it: the authorization
 * server refused the scope (`invalid_scope`), or the server still said 403 with the new token.
 */
function scopeRefusal(error: unknown): string | undefined {
  if (
    error instanceof OAuthError &&
    (error.code === 'invalid_scope' || error.code === 'insufficient_scope')
  ) {
    return `${error.code}: ${error.message}`;
  }
  if (error instanceof SdkHttpError && error.data?.status === 403) return `HTTP 403: ${error.message}`;
  return undefined;
}

function abortedFailure(): CallFailure {
  return { kind: 'aborted', message: 'The call was cancelled before the tool answered.' };
}
