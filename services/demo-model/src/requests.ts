/**
 * @module requests
 * The request bodies the demo server accepts (Chat Completions and Responses), as zod schemas,
 * and their mapping onto the planner's input. Pure; served by `server.ts`.
 */
import { WorkshopError } from '@mcp-workshop/shared';
import { z } from 'zod';
import type { PlanInput, PlannerMessage, PlannerTool, PlannerToolCall } from './types.js';

/** OpenAI's own limit on functions per request. */
const MAX_TOOLS = 128;
/** Far more turns than a workshop conversation has; the 1 MB body limit bounds the rest. */
const MAX_MESSAGES = 2_048;
const MAX_PARTS = 256;
const MAX_NAME_LENGTH = 128;
const MAX_ID_LENGTH = 256;

/** A request the demo model refuses; the server sends it as an OpenAI-style error with `status`. */
export class DemoRequestError extends WorkshopError {
  readonly status: number;
  readonly param: string | null;
  readonly code: string | null;

  constructor(
    message: string,
    options: { status?: number; param?: string | null; code?: string | null } = {},
  ) {
    super(message);
    this.status = options.status ?? 400;
    this.param = options.param ?? null;
    this.code = options.code ?? null;
  }
}

const name = z.string().min(1).max(MAX_NAME_LENGTH);
const id = z.string().max(MAX_ID_LENGTH);
const jsonObject = z.record(z.string(), z.unknown());
const textPart = z.looseObject({ type: z.string().max(64), text: z.string().optional() });
const parts = z.array(textPart).max(MAX_PARTS);

const chatMessage = z
  .looseObject({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
    content: z.union([z.string(), parts, z.null()]).optional(),
    tool_calls: z
      .array(
        z.looseObject({
          id,
          type: z.string().optional(),
          function: z.looseObject({ name, arguments: z.string() }).optional(),
        }),
      )
      .max(MAX_TOOLS)
      .optional(),
    tool_call_id: id.optional(),
  })
  .refine((message) => message.role !== 'tool' || message.tool_call_id !== undefined, {
    message: 'A message with role "tool" needs a tool_call_id.',
    path: ['tool_call_id'],
  });

const chatTool = z.looseObject({
  type: z.string(),
  function: z
    .looseObject({
      name,
      description: z.string().nullable().optional(),
      parameters: jsonObject.nullable().optional(),
      strict: z.boolean().nullable().optional(),
    })
    .optional(),
});

export const chatRequestSchema = z.looseObject({
  model: z.string().min(1).max(256),
  messages: z.array(chatMessage).min(1).max(MAX_MESSAGES),
  tools: z.array(chatTool).max(MAX_TOOLS).optional(),
  tool_choice: z
    .union([
      z.enum(['none', 'auto', 'required']),
      z.looseObject({ type: z.literal('function'), function: z.looseObject({ name }) }),
    ])
    .optional(),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;

const KNOWN_ITEM_TYPES = new Set(['message', 'function_call', 'function_call_output']);
const inputItem = z.union([
  z.looseObject({
    type: z.literal('message').optional(),
    role: z.enum(['user', 'system', 'developer', 'assistant']),
    content: z.union([z.string(), parts]),
  }),
  z.looseObject({ type: z.literal('function_call'), call_id: id, name, arguments: z.string() }),
  z.looseObject({
    type: z.literal('function_call_output'),
    call_id: id,
    output: z.union([z.string(), parts]),
  }),
  // Other item kinds (reasoning, web search results, …) carry nothing the planner reads.
  z
    .looseObject({ type: z.string().refine((type) => !KNOWN_ITEM_TYPES.has(type)) })
    .transform(() => ({ type: 'ignored' as const })),
]);

const responsesTool = z
  .looseObject({
    type: z.string(),
    name: name.optional(),
    description: z.string().nullable().optional(),
    parameters: jsonObject.nullable().optional(),
    strict: z.boolean().nullable().optional(),
  })
  .refine((tool) => tool.type !== 'function' || tool.name !== undefined, {
    message: 'A function tool needs a name.',
    path: ['name'],
  });

export const responsesRequestSchema = z.looseObject({
  model: z.string().min(1).max(256),
  input: z.union([z.string(), z.array(inputItem).max(MAX_MESSAGES)]),
  instructions: z.string().nullable().optional(),
  tools: z.array(responsesTool).max(MAX_TOOLS).optional(),
  tool_choice: z
    .union([z.enum(['none', 'auto', 'required']), z.looseObject({ type: z.literal('function'), name })])
    .optional(),
  stream: z.boolean().nullable().optional(),
  previous_response_id: z.string().nullable().optional(),
});
export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;

/** Honours `tool_choice`: "none" offers nothing, a named function offers only that one. */
function chosenTools(
  tools: PlannerTool[],
  choice: 'none' | 'auto' | 'required' | string | undefined,
): PlannerTool[] {
  if (choice === 'none') return [];
  if (choice === undefined || choice === 'auto' || choice === 'required') return tools;
  return tools.filter((tool) => tool.name === choice);
}

function plannerTool(tool: {
  name: string;
  description?: string | null | undefined;
  parameters?: Record<string, unknown> | null | undefined;
}): PlannerTool {
  const out: PlannerTool = { name: tool.name };
  if (tool.description) out.description = tool.description;
  if (tool.parameters) out.parameters = tool.parameters;
  return out;
}

/** A Chat Completions body as the planner's input. */
export function chatToPlanInput(request: ChatRequest): PlanInput {
  const tools = (request.tools ?? []).flatMap((tool) =>
    tool.type === 'function' && tool.function ? [plannerTool(tool.function)] : [],
  );
  const choice =
    typeof request.tool_choice === 'object' ? request.tool_choice.function.name : request.tool_choice;
  return { messages: request.messages, tools: chosenTools(tools, choice) };
}

/**
 * A Responses body as the planner's input: consecutive `function_call` items become one assistant
 * message (one round of calls), `function_call_output` items become tool messages.
 */
export function responsesToPlanInput(request: ResponsesRequest): PlanInput {
  if (request.previous_response_id) {
    throw new DemoRequestError(
      'The offline demo model keeps no state, so previous_response_id is not supported: send the whole conversation as input.',
      { param: 'previous_response_id', code: 'unsupported_parameter' },
    );
  }
  const messages: PlannerMessage[] = [];
  if (request.instructions) messages.push({ role: 'system', content: request.instructions });
  const items =
    typeof request.input === 'string'
      ? [{ type: 'message' as const, role: 'user' as const, content: request.input }]
      : request.input;
  let round: (PlannerMessage & { tool_calls: PlannerToolCall[] }) | undefined;
  for (const item of items) {
    if (item.type === 'function_call') {
      if (!round) {
        round = { role: 'assistant', content: null, tool_calls: [] };
        messages.push(round);
      }
      round.tool_calls.push({
        id: item.call_id,
        type: 'function',
        function: { name: item.name, arguments: item.arguments },
      });
      continue;
    }
    round = undefined;
    if (item.type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: item.output });
    } else if (item.type !== 'ignored') {
      messages.push({ role: item.role, content: item.content });
    }
  }
  const tools = (request.tools ?? []).flatMap((tool) =>
    tool.type === 'function' && tool.name ? [plannerTool({ ...tool, name: tool.name })] : [],
  );
  const choice = typeof request.tool_choice === 'object' ? request.tool_choice.name : request.tool_choice;
  return { messages, tools: chosenTools(tools, choice) };
}

/** The first problem zod found, worded like OpenAI's errors, with its `param` path. */
export function describeIssue(error: z.ZodError): { message: string; param: string | null } {
  let issue: z.core.$ZodIssue | undefined = error.issues[0];
  let path: PropertyKey[] = issue?.path ?? [];
  // A union reports "invalid input"; the first branch's own issue says what was wrong.
  while (issue?.code === 'invalid_union' && issue.errors[0]?.[0]) {
    const inner: z.core.$ZodIssue = issue.errors[0][0];
    path = [...path, ...inner.path];
    issue = inner;
  }
  const param = path.reduce<string>(
    (text, key) =>
      typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key),
    '',
  );
  const message = issue?.message ?? 'Invalid request body.';
  return { message: param ? `Invalid '${param}': ${message}` : message, param: param || null };
}
