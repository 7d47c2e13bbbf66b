/**
 * @module responses-wire
 * A planned turn in the Responses API wire format: the `response` object, or the event sequence
 * a stream sends (created, in_progress, output items with their deltas, completed). Pure, and
 * typed with the `openai` package's own types. Served by `server.ts`.
 */
import type {
  FunctionTool,
  Response,
  ResponseFunctionToolCall,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseOutputText,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import { splitArguments, splitText, type WireTurn } from './chat-wire.js';
import { DEMO_MODEL_ID } from './types.js';

/** Fields the response object repeats from the request, and the ids this turn uses. */
export interface ResponseMeta {
  id: string;
  createdAt: number;
  instructions: string | null;
  tools: FunctionTool[];
  /** Id of the message item, for a text turn. */
  messageId: string;
  /** Item ids of the function calls, one per call. */
  callItemIds: string[];
}

function outputText(text: string): ResponseOutputText {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

function messageItem(
  meta: ResponseMeta,
  text: string,
  status: 'in_progress' | 'completed',
): ResponseOutputMessage {
  return {
    id: meta.messageId,
    type: 'message',
    role: 'assistant',
    status,
    content: status === 'completed' ? [outputText(text)] : [],
  };
}

function callItem(
  turn: WireTurn,
  meta: ResponseMeta,
  index: number,
  status: 'in_progress' | 'completed',
): ResponseFunctionToolCall {
  const call = turn.calls[index];
  return {
    id: meta.callItemIds[index] ?? `fc_${index}`,
    type: 'function_call',
    status,
    call_id: call?.id ?? '',
    name: call?.name ?? '',
    arguments: status === 'completed' ? (call?.arguments ?? '') : '',
  };
}

function outputItems(turn: WireTurn, meta: ResponseMeta): ResponseOutputItem[] {
  if (turn.text !== null) return [messageItem(meta, turn.text, 'completed')];
  return turn.calls.map((_, index) => callItem(turn, meta, index, 'completed'));
}

/** The response object; `status: 'in_progress'` with no output is what a stream opens with. */
export function responseObject(
  turn: WireTurn,
  meta: ResponseMeta,
  status: 'in_progress' | 'completed',
): Response {
  const done = status === 'completed';
  const response: Response = {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status,
    completed_at: done ? meta.createdAt : null,
    error: null,
    incomplete_details: null,
    instructions: meta.instructions,
    metadata: {},
    model: DEMO_MODEL_ID,
    output: done ? outputItems(turn, meta) : [],
    output_text: done ? (turn.text ?? '') : '',
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: meta.tools,
    top_p: 1,
  };
  if (done) {
    response.usage = {
      input_tokens: turn.promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: turn.completionTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: turn.promptTokens + turn.completionTokens,
    };
  }
  return response;
}

/** Event payloads without `sequence_number`, which {@link responseEvents} adds in order. */
type Unnumbered = ResponseStreamEvent extends infer E
  ? E extends unknown
    ? Omit<E, 'sequence_number'>
    : never
  : never;

/** The stream, in the order OpenAI sends it. */
export function responseEvents(turn: WireTurn, meta: ResponseMeta): ResponseStreamEvent[] {
  const events: Unnumbered[] = [
    { type: 'response.created', response: responseObject(turn, meta, 'in_progress') },
    { type: 'response.in_progress', response: responseObject(turn, meta, 'in_progress') },
  ];
  if (turn.text !== null) {
    const item_id = meta.messageId;
    const where = { item_id, output_index: 0, content_index: 0 };
    events.push({
      type: 'response.output_item.added',
      output_index: 0,
      item: messageItem(meta, '', 'in_progress'),
    });
    events.push({ type: 'response.content_part.added', ...where, part: outputText('') });
    for (const delta of splitText(turn.text)) {
      events.push({ type: 'response.output_text.delta', ...where, delta, logprobs: [] });
    }
    events.push({ type: 'response.output_text.done', ...where, text: turn.text, logprobs: [] });
    events.push({ type: 'response.content_part.done', ...where, part: outputText(turn.text) });
    events.push({
      type: 'response.output_item.done',
      output_index: 0,
      item: messageItem(meta, turn.text, 'completed'),
    });
  }
  turn.calls.forEach((call, output_index) => {
    const item_id = meta.callItemIds[output_index] ?? `fc_${output_index}`;
    events.push({
      type: 'response.output_item.added',
      output_index,
      item: callItem(turn, meta, output_index, 'in_progress'),
    });
    for (const delta of splitArguments(call.arguments)) {
      events.push({ type: 'response.function_call_arguments.delta', item_id, output_index, delta });
    }
    events.push({
      type: 'response.function_call_arguments.done',
      item_id,
      output_index,
      name: call.name,
      arguments: call.arguments,
    });
    events.push({
      type: 'response.output_item.done',
      output_index,
      item: callItem(turn, meta, output_index, 'completed'),
    });
  });
  events.push({ type: 'response.completed', response: responseObject(turn, meta, 'completed') });
  return events.map((event, sequence_number) => ({ ...event, sequence_number }) as ResponseStreamEvent);
}
