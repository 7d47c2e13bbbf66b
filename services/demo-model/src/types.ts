/**
 * @module types
 * What the offline demo model's planner reads and returns. The message type is structural, so
 * OpenAI's `ChatCompletionMessageParam` fits it and the Responses input can be mapped onto it.
 */

/** A JSON Schema object, as a function's `parameters` carries it. */
export type JsonSchema = Record<string, unknown>;

/** The model id the demo server reports, whatever model name the client asked for. */
export const DEMO_MODEL_ID = 'offline-demo-model';

/** Who "owns" the model in `/v1/models`: says plainly that this is a script. */
export const DEMO_MODEL_OWNER = 'mcp-workshop (scripted, not a language model)';

/** Appended to every answer the demo model writes, so nobody mistakes it for a real model. */
export const DEMO_LABEL = '(offline demo model)';

/** One function the request offers. */
export interface PlannerTool {
  name: string;
  description?: string;
  parameters?: JsonSchema;
}

/** A tool call as it appears in an assistant message of the history. */
export interface PlannerToolCall {
  id: string;
  type?: string;
  function?: { name: string; arguments: string };
}

/** One message of the conversation, in Chat Completions shape. */
export interface PlannerMessage {
  role: string;
  content?: unknown;
  tool_calls?: readonly PlannerToolCall[];
  tool_call_id?: string;
}

export interface PlanInput {
  messages: readonly PlannerMessage[];
  tools: readonly PlannerTool[];
  /** The clock, for "on Friday" and "tomorrow"; defaults to the real time. Tests fix it. */
  now?: Date;
}

export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What the demo model does this turn: call tools, or answer in text. */
export type Plan = { kind: 'tool_calls'; calls: PlannedCall[] } | { kind: 'answer'; text: string };
