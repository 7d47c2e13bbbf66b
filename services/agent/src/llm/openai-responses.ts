import type {
  ChatCompletionContentPart,
  ChatCompletionContentPartRefusal,
  ChatCompletionContentPartText,
} from 'openai/resources/chat/completions';
import type {
  FunctionTool,
  Response,
  ResponseCreateParamsStreaming,
  ResponseInputContent,
  ResponseInputItem,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import { ModelResponseError } from './errors.js';
import { type OpenAIProviderOptions, readModelStream } from './model-stream.js';
import type {
  ChatMessage,
  FunctionSpec,
  ModelProvider,
  ModelReport,
  ModelRequest,
  ModelToolCall,
  ModelTurn,
} from './provider.js';

/** A provider that streams each turn from `POST {baseURL}/responses`. */
export function createResponsesProvider(options: OpenAIProviderOptions): ModelProvider {
  const { client, description } = options;
  return {
    description,
    async complete(request) {
      const state = createResponsesTurnState();
      await readModelStream({
        model: description,
        request,
        open: () =>
          client.responses.create(toResponsesParams(description.model, request), { signal: request.signal }),
        onItem: (event) => {
          const text = applyResponsesEvent(state, event);
          if (state.failure !== undefined) {
            throw new ModelResponseError(
              `The model API at ${description.baseUrl} reported an error: ${state.failure}`,
              description,
            );
          }
          return text;
        },
        outputLength: () => state.size,
        ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
      });
      return finishResponsesTurn(state);
    },
  };
}

/**
 * The request body. `store: false` because the agent keeps the conversation itself and sends all of
 * it every turn; nothing needs to stay on OpenAI's servers.
 */
export function toResponsesParams(model: string, request: ModelRequest): ResponseCreateParamsStreaming {
  const params: ResponseCreateParamsStreaming = {
    model,
    input: toResponsesInput(request.messages),
    stream: true,
    store: false,
  };
  if (request.functions.length > 0) {
    params.tools = toResponsesTools(request.functions);
    params.tool_choice = 'auto';
  }
  return params;
}

/** Functions as Responses tools, `strict` always explicit. */
export function toResponsesTools(functions: readonly FunctionSpec[]): FunctionTool[] {
  return functions.map((spec) => ({
    type: 'function',
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    strict: spec.strict,
  }));
}

/**
 * Chat messages as Responses input items: text messages stay messages, an assistant's tool calls
 * become `function_call` items after its text, and tool results become `function_call_output` items.
 * Throws for message kinds the agent never creates (audio, custom tools, the legacy `function` role).
 */
export function toResponsesInput(messages: readonly ChatMessage[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        items.push({ type: 'message', role: message.role, content: joinText(message.content) });
        break;
      case 'user':
        items.push({
          type: 'message',
          role: 'user',
          content:
            typeof message.content === 'string' ? message.content : message.content.map(toInputContent),
        });
        break;
      case 'assistant': {
        const text = message.content == null ? '' : joinText(message.content);
        if (text !== '') items.push({ type: 'message', role: 'assistant', content: text });
        for (const call of message.tool_calls ?? []) {
          if (call.type !== 'function') throw new TypeError(`Unsupported tool call type "${call.type}"`);
          items.push({
            type: 'function_call',
            call_id: call.id,
            name: call.function.name,
            arguments: call.function.arguments,
          });
        }
        break;
      }
      case 'tool':
        items.push({
          type: 'function_call_output',
          call_id: message.tool_call_id,
          output: joinText(message.content),
        });
        break;
      default:
        throw new TypeError(`Unsupported message role "${message.role}"`);
    }
  }
  return items;
}

function toInputContent(part: ChatCompletionContentPart): ResponseInputContent {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image_url':
      return { type: 'input_image', image_url: part.image_url.url, detail: part.image_url.detail ?? 'auto' };
    case 'file': {
      const file: ResponseInputContent = { type: 'input_file' };
      if (part.file.file_id !== undefined) file.file_id = part.file.file_id;
      if (part.file.file_data !== undefined) file.file_data = part.file.file_data;
      if (part.file.filename !== undefined) file.filename = part.file.filename;
      return file;
    }
    default:
      throw new TypeError(`Unsupported content part "${part.type}" for the Responses API`);
  }
}

function joinText(
  content: string | ReadonlyArray<ChatCompletionContentPartText | ChatCompletionContentPartRefusal>,
) {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : part.refusal)).join('');
}

/** A turn being assembled from stream events. */
export interface ResponsesTurnState {
  text: string;
  /** True once a text delta arrived; then the final response's text is not added again. */
  sawTextDelta: boolean;
  calls: ModelToolCall[];
  /** Characters received so far (text, names, arguments), for the size bound. */
  size: number;
  /** Set when the stream reports that the response failed; the provider turns it into an error. */
  failure?: string;
  /** Id, model, status and usage of the final response, for the turn's `chat` span. */
  report?: ModelReport;
}

export function createResponsesTurnState(): ResponsesTurnState {
  return { text: '', sawTextDelta: false, calls: [], size: 0 };
}

/**
 * Folds one stream event into the turn and returns its answer text. Function calls are taken whole
 * from `response.output_item.done`, or from the final response if a server skips those events.
 */
export function applyResponsesEvent(state: ResponsesTurnState, event: ResponseStreamEvent): string {
  switch (event.type) {
    case 'response.output_text.delta':
    case 'response.refusal.delta':
      state.sawTextDelta = true;
      state.text += event.delta;
      state.size += event.delta.length;
      return event.delta;
    case 'response.output_item.done':
      if (event.item.type === 'function_call') addCall(state, event.item);
      return '';
    case 'response.completed':
    case 'response.incomplete':
      return absorbFinalResponse(state, event.response);
    case 'response.failed':
      state.failure = event.response.error?.message ?? 'the response failed without a reason';
      return '';
    case 'error':
      state.failure = event.message || event.code || 'an error event without a message';
      return '';
    default:
      return '';
  }
}

export function finishResponsesTurn(state: ResponsesTurnState): ModelTurn {
  return {
    text: state.text,
    toolCalls: state.calls.map((call) => ({ ...call })),
    ...(state.report && { report: state.report }),
  };
}

/** The final response: calls not seen yet, its text when no delta carried any, and its report. */
function absorbFinalResponse(state: ResponsesTurnState, response: Response): string {
  state.report = {
    ...(response.id && { responseId: response.id }),
    ...(response.model && { responseModel: response.model }),
    ...(response.status && { finishReason: response.status }),
    ...(response.usage && {
      inputTokens: response.usage.input_tokens,
      outputTokens: response.usage.output_tokens,
    }),
  };
  let text = '';
  for (const item of response.output ?? []) {
    if (item.type === 'function_call') addCall(state, item);
    if (item.type === 'message' && !state.sawTextDelta) {
      for (const part of item.content) text += part.type === 'output_text' ? part.text : part.refusal;
    }
  }
  state.text += text;
  state.size += text.length;
  return text;
}

function addCall(
  state: ResponsesTurnState,
  item: { call_id: string; name: string; arguments: string },
): void {
  if (state.calls.some((call) => call.id === item.call_id)) return;
  state.calls.push({ id: item.call_id, name: item.name, arguments: item.arguments });
  state.size += item.call_id.length + item.name.length + item.arguments.length;
}
