/**
 * @module llm/openai-chat
 * The model provider for the Chat Completions API (`OPENAI_API=chat`), which OpenAI, Ollama,
 * LM Studio and the demo model all speak. Request and stream mapping are pure functions; the
 * Responses API twin is `openai-responses.ts`. Tests: `openai-chat.test.ts`, `openai-providers.test.ts`.
 */
import { randomUUID } from 'node:crypto';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
} from 'openai/resources/chat/completions';
import { type OpenAIProviderOptions, readModelStream } from './model-stream.js';
import type {
  FunctionSpec,
  ModelProvider,
  ModelReport,
  ModelRequest,
  ModelToolCall,
  ModelTurn,
} from './provider.js';

/** A provider that streams each turn from `POST {baseURL}/chat/completions`. */
export function createChatProvider(options: OpenAIProviderOptions): ModelProvider {
  const { client, description } = options;
  return {
    description,
    async complete(request) {
      const state = createChatTurnState();
      await readModelStream({
        model: description,
        request,
        open: () =>
          client.chat.completions.create(toChatParams(description.model, request, options.reportUsage), {
            signal: request.signal,
          }),
        onItem: (chunk) => applyChatChunk(state, chunk),
        outputLength: () => state.size,
        ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
      });
      return finishChatTurn(state);
    },
  };
}

/**
 * The request body: streaming, with tools only when there are any (some servers reject `tools: []`).
 * With `reportUsage` (telemetry on), a last chunk reports token usage: OpenAI, Ollama, LM Studio and
 * the demo model send it, but some compatible servers refuse the field, so it is not sent otherwise.
 */
export function toChatParams(
  model: string,
  request: ModelRequest,
  reportUsage = false,
): ChatCompletionCreateParamsStreaming {
  const params: ChatCompletionCreateParamsStreaming = {
    model,
    messages: request.messages,
    stream: true,
    ...(reportUsage && { stream_options: { include_usage: true } }),
  };
  if (request.functions.length > 0) {
    params.tools = toChatTools(request.functions);
    params.tool_choice = 'auto';
  }
  return params;
}

/** Functions as Chat Completions tools, `strict` always explicit. */
export function toChatTools(functions: readonly FunctionSpec[]): ChatCompletionFunctionTool[] {
  return functions.map((spec) => ({
    type: 'function',
    function: {
      name: spec.name,
      description: spec.description,
      parameters: spec.parameters,
      strict: spec.strict,
    },
  }));
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/** A turn being assembled from chunks. */
export interface ChatTurnState {
  text: string;
  /** By the `index` the stream gives each call; pieces of one call share it. */
  calls: Map<number, PartialCall>;
  /** Characters received so far (text, names, arguments), for the size bound. */
  size: number;
  report: ModelReport;
}

export function createChatTurnState(): ChatTurnState {
  return { text: '', calls: new Map(), size: 0, report: {} };
}

/** Ids, model, finish reason and the usage chunk, kept for the turn's `chat` span. */
function noteReport(report: ModelReport, chunk: ChatCompletionChunk): void {
  if (typeof chunk.id === 'string' && chunk.id) report.responseId = chunk.id;
  if (typeof chunk.model === 'string' && chunk.model) report.responseModel = chunk.model;
  const reason = chunk.choices?.[0]?.finish_reason;
  if (typeof reason === 'string') report.finishReason = reason;
  const usage = chunk.usage;
  if (usage && Number.isInteger(usage.prompt_tokens) && Number.isInteger(usage.completion_tokens)) {
    report.inputTokens = usage.prompt_tokens;
    report.outputTokens = usage.completion_tokens;
  }
}

/**
 * Folds one chunk into the turn and returns its answer text. Only the first choice counts (the agent
 * never asks for more). A call's `id` and `name` arrive whole, usually once; `arguments` arrive in pieces.
 */
export function applyChatChunk(state: ChatTurnState, chunk: ChatCompletionChunk): string {
  noteReport(state.report, chunk);
  const delta = chunk.choices?.find((choice) => choice.index === 0)?.delta ?? chunk.choices?.[0]?.delta;
  if (!delta) return '';
  const text = (delta.content ?? '') + (delta.refusal ?? '');
  state.text += text;
  state.size += text.length;

  (delta.tool_calls ?? []).forEach((piece, position) => {
    const index = typeof piece.index === 'number' ? piece.index : position;
    let call = state.calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      state.calls.set(index, call);
      state.size += 1;
    }
    if (piece.id) call.id = piece.id;
    if (piece.function?.name) call.name = piece.function.name;
    if (piece.function?.arguments) call.arguments += piece.function.arguments;
    state.size += (piece.id?.length ?? 0) + (piece.function?.name?.length ?? 0);
    state.size += piece.function?.arguments?.length ?? 0;
  });
  return text;
}

/** The finished turn. Calls keep stream order; a call the server sent without an id gets one. */
export function finishChatTurn(state: ChatTurnState, newCallId: () => string = defaultCallId): ModelTurn {
  const toolCalls: ModelToolCall[] = [...state.calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => call)
    .filter((call) => call.name !== '' || call.arguments !== '')
    .map((call) => ({ id: call.id || newCallId(), name: call.name, arguments: call.arguments }));
  return { text: state.text, toolCalls, report: state.report };
}

/** Some local servers omit ids, but the reply to a call must name one. */
function defaultCallId(): string {
  return `call_${randomUUID().replaceAll('-', '')}`;
}
