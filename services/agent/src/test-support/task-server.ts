/**
 * @module test-support/task-server
 * An MCP server that speaks MCP Tasks (SEP-2663) on the 2026-07-28 wire, hand-written on the
 * official `McpServer` so the agent's tests do not lean on the workshop's own runtime, and so it can
 * misbehave on purpose: a task answer without a task id, a task that never ends, a `tasks/get` that
 * never answers, an answer about another task. It records every `tasks/*` request with its
 * `Mcp-Name` header. Partners: `mcp/task-wait.test.ts`, `tasks.test.ts`.
 */
import { randomUUID } from 'node:crypto';
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  McpServer,
  ProtocolError,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { serveFetch } from '../mcp/test-support/serve-fetch.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const JOB_FAILED_CODE = -32050;
export const JOB_FAILED_MESSAGE = 'The job backend gave up';
/** What `report` answers, as structuredContent. */
export const REPORT = { sections: 3, summary: 'three sections' };

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The scripted behaviours, one per tool. */
export const TASK_TOOLS = {
  /** Works for `ms`, then completes with {@link REPORT}; a cancel ends it `cancelled`. */
  report: 'Completes after ms milliseconds.',
  /** Ends `failed` with a JSON-RPC error after a poll. */
  failing_job: 'Fails with a JSON-RPC error.',
  /** Answers with a task that has no task id. */
  no_task_id: 'Answers with a malformed task.',
  /** Stays `working` forever, with a short ttlMs. */
  endless: 'Never ends.',
  /** Its tasks/get never answers. */
  silent: 'Never answers tasks/get.',
  /** Its tasks/get answers about another task. */
  other_id: 'Answers tasks/get about another task.',
  /** Asks for input (input_required) at once. */
  asks_input: 'Asks for input.',
} as const;
export type TaskToolName = keyof typeof TASK_TOOLS;

/** How long `endless` lives (ttlMs): the agent must stop waiting by then. */
export const ENDLESS_TTL_MS = 800;

interface ServerTask {
  id: string;
  tool: TaskToolName;
  status: Status;
  createdAt: string;
  lastUpdatedAt: string;
  statusMessage?: string;
  /** When `report` completes, in `Date.now()` ms. */
  doneAt?: number;
}

export interface RecordedTaskRequest {
  method: string;
  taskId?: string;
  /** The `Mcp-Name` header as it arrived. */
  mcpName: string | null;
}

export interface TaskServer {
  url: string;
  readonly tasks: Map<string, ServerTask>;
  readonly requests: RecordedTaskRequest[];
  /** Whether each `tools/call` declared the extension in its own capabilities, in order. */
  readonly declared: boolean[];
  close(): Promise<void>;
}

const text = (value: string) => ({ type: 'text' as const, text: value });
const taskIdParams = z.looseObject({ taskId: z.string() });

/** Starts the server on 127.0.0.1, on a port the OS picks. */
export async function startTaskServer(): Promise<TaskServer> {
  const tasks = new Map<string, ServerTask>();
  const requests: RecordedTaskRequest[] = [];
  const declared: boolean[] = [];

  const wire = (task: ServerTask) => ({
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage && { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.tool === 'endless' ? ENDLESS_TTL_MS : 60_000,
    // Below the agent's floor on purpose: it must not poll this often.
    pollIntervalMs: 20,
  });

  /** The task as `tasks/get` finds it now: `report` completes on time, `failing_job` fails. */
  const advance = (task: ServerTask): Record<string, unknown> => {
    const now = new Date().toISOString();
    if (task.tool === 'report' && task.status === 'working' && Date.now() >= (task.doneAt ?? 0)) {
      Object.assign(task, { status: 'completed', lastUpdatedAt: now, statusMessage: undefined });
    }
    if (task.tool === 'failing_job' && task.status === 'working') {
      Object.assign(task, { status: 'failed', lastUpdatedAt: now });
    }
    if (task.tool === 'asks_input') task.status = 'input_required';
    return {
      ...wire(task),
      ...(task.status === 'completed' && {
        result: { content: [text(JSON.stringify(REPORT))], structuredContent: REPORT },
      }),
      ...(task.status === 'failed' && { error: { code: JOB_FAILED_CODE, message: JOB_FAILED_MESSAGE } }),
      ...(task.status === 'input_required' && {
        inputRequests: {
          confirm: {
            method: 'elicitation/create',
            params: { message: 'Go on?', requestedSchema: { type: 'object', properties: {} } },
          },
        },
      }),
    };
  };

  const buildServer = () => {
    const server = new McpServer({ name: 'task-double', version: '0.0.1' });
    server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
    for (const [name, description] of Object.entries(TASK_TOOLS)) {
      server.registerTool(
        name,
        { description, inputSchema: z.object({ ms: z.number().int().min(0).max(10_000).optional() }) },
        async () => ({ content: [] }),
      );
    }
    server.server.setRequestHandler('tools/call', async (request, ctx) => {
      const tool = request.params.name as TaskToolName;
      if (!(tool in TASK_TOOLS)) throw new ProtocolError(-32602, `Tool ${tool} not found`);
      const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[
        CLIENT_CAPABILITIES_META_KEY
      ] as { extensions?: Record<string, unknown> } | undefined;
      const wantsTasks = capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
      declared.push(wantsTasks);
      // A task only for a caller that declared the extension, as the spec says.
      if (!wantsTasks) return { content: [text(`${tool} ran at once`)], structuredContent: { plain: true } };
      const now = new Date().toISOString();
      const ms = Number(request.params.arguments?.ms ?? 300);
      const task: ServerTask = {
        id: randomUUID(),
        tool,
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        doneAt: Date.now() + ms,
        ...(tool === 'report' && { statusMessage: 'Writing the sections' }),
      };
      tasks.set(task.id, task);
      const created = { resultType: 'task', ...wire(task) } as Record<string, unknown>;
      if (tool === 'no_task_id') delete created.taskId;
      return created as unknown as CallToolResult;
    });
    server.server.setRequestHandler('tasks/get', { params: taskIdParams }, async ({ taskId }, ctx) => {
      const task = tasks.get(taskId);
      if (!task) throw new ProtocolError(-32602, 'No task with that id.');
      if (task.tool === 'silent') {
        // Holds the request until the client gives up on it.
        await new Promise((resolve) => ctx.mcpReq.signal.addEventListener('abort', resolve, { once: true }));
      }
      const answer = advance(task);
      if (task.tool === 'other_id') return { resultType: 'complete', ...answer, taskId: randomUUID() };
      return { resultType: 'complete', ...answer };
    });
    server.server.setRequestHandler('tasks/cancel', { params: taskIdParams }, async ({ taskId }) => {
      const task = tasks.get(taskId);
      if (!task) throw new ProtocolError(-32602, 'No task with that id.');
      if (task.status === 'working' || task.status === 'input_required') task.status = 'cancelled';
      return { resultType: 'complete' };
    });
    return server;
  };

  const handler = createMcpHandler(buildServer);
  const served = await serveFetch(async (request) => {
    if (request.method === 'POST') {
      const body = (await request
        .clone()
        .json()
        .catch(() => ({}))) as { method?: unknown; params?: { taskId?: unknown } };
      if (typeof body.method === 'string' && body.method.startsWith('tasks/')) {
        requests.push({
          method: body.method,
          ...(typeof body.params?.taskId === 'string' && { taskId: body.params.taskId }),
          mcpName: request.headers.get('mcp-name'),
        });
      }
    }
    return handler.fetch(request);
  });
  return {
    url: served.url,
    tasks,
    requests,
    declared,
    async close() {
      await handler.close();
      await served.close();
    },
  };
}
