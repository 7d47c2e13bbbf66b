/**
 * @module llm/provider
 * The model sits behind this interface. The conversation is kept in OpenAI's Chat Completions
 * message format (the most widely spoken one); the Responses provider translates at its edge.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { JsonSchema } from '../types.js';

export type ChatMessage = ChatCompletionMessageParam;

/** One function offered to the model, already valid for OpenAI. */
export interface FunctionSpec {
  /** Matches `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  description: string;
  parameters: JsonSchema;
  /** Always sent explicitly: true only when `parameters` was made strict-compatible. */
  strict: boolean;
}

export interface ModelToolCall {
  id: string;
  /** The function name as the model sent it (an OpenAI name, not yet mapped back to MCP). */
  name: string;
  /** Raw JSON text from the model; it may be invalid. */
  arguments: string;
}

export interface ModelTurn {
  text: string;
  toolCalls: ModelToolCall[];
  /** What the endpoint said about the turn, where it said it; the `chat` span records it. */
  report?: ModelReport;
}

/** The endpoint's own account of a turn: each field only when the stream carried it. */
export interface ModelReport {
  responseId?: string;
  /** The model that answered, which may be more precise than the one asked for. */
  responseModel?: string;
  /** `stop`, `tool_calls`, `length`… (Chat Completions), or the Responses API's status. */
  finishReason?: string;
  inputTokens?: number;
  outputTokens?: number;
}

export interface ModelRequest {
  messages: ChatMessage[];
  functions: FunctionSpec[];
  signal?: AbortSignal;
  /** Called with each piece of answer text as it streams in. */
  onTextDelta?: (delta: string) => void;
}

/** Which model answers, for the trace and the page's badge. */
export interface ModelDescription {
  kind: 'demo' | 'openai' | 'custom';
  model: string;
  baseUrl: string;
  api: 'chat' | 'responses';
  /** Human label, e.g. "offline demo model (scripted, not a language model)". */
  label: string;
}

export interface ModelProvider {
  readonly description: ModelDescription;
  complete(request: ModelRequest): Promise<ModelTurn>;
}
