/**
 * @module chat-wire
 * A planned turn in the Chat Completions wire format: the whole `chat.completion`, or the
 * `chat.completion.chunk` sequence a stream sends. Pure; typed with the `openai` package's own
 * types so the shapes cannot drift from what the real client parses. Served by `server.ts`.
 */
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { DEMO_MODEL_ID } from './types.js';

/** Text deltas of about this many characters, so streaming shows word by word. */
const TEXT_PIECE_CHARS = 12;
/** Argument deltas this long, so clients must really assemble them. */
const ARGUMENT_PIECE_CHARS = 8;
/** However long a text, a stream sends at most this many pieces of it. */
const MAX_PIECES = 120;

/** One tool call with its final id and JSON arguments. */
export interface WireCall {
  id: string;
  name: string;
  arguments: string;
}

/** A planned turn ready for the wire: text or calls, plus token estimates. */
export interface WireTurn {
  /** Answer text, or null for a turn of tool calls. */
  text: string | null;
  calls: WireCall[];
  /** Rough estimates (4 characters a token); the demo model has no tokenizer. */
  promptTokens: number;
  completionTokens: number;
}

/** Estimated tokens for a piece of text. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Splits text after whitespace into pieces of about `size` characters; joined, they are the text. */
export function splitText(text: string, size = TEXT_PIECE_CHARS): string[] {
  const target = Math.max(size, Math.ceil(text.length / MAX_PIECES));
  const pieces: string[] = [];
  let current = '';
  for (const word of text.split(/(?<=\s)/u)) {
    current += word;
    if (current.length >= target) {
      pieces.push(current);
      current = '';
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/** Fixed-size pieces by code point, so no piece ends inside a surrogate pair. */
export function splitArguments(text: string, size = ARGUMENT_PIECE_CHARS): string[] {
  const chars = Array.from(text);
  const target = Math.max(size, Math.ceil(chars.length / MAX_PIECES));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += target) pieces.push(chars.slice(i, i + target).join(''));
  return pieces.length > 0 ? pieces : [''];
}

function usageOf(turn: WireTurn): CompletionUsage {
  return {
    prompt_tokens: turn.promptTokens,
    completion_tokens: turn.completionTokens,
    total_tokens: turn.promptTokens + turn.completionTokens,
  };
}

/** Meta fields every object of one completion shares. */
export interface CompletionMeta {
  id: string;
  created: number;
}

/** The non-streaming answer. */
export function chatCompletion(turn: WireTurn, meta: CompletionMeta): ChatCompletion {
  const message: ChatCompletion.Choice['message'] = { role: 'assistant', content: turn.text, refusal: null };
  if (turn.calls.length > 0) {
    message.tool_calls = turn.calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: DEMO_MODEL_ID,
    choices: [
      { index: 0, message, finish_reason: turn.calls.length > 0 ? 'tool_calls' : 'stop', logprobs: null },
    ],
    usage: usageOf(turn),
  };
}

/**
 * The stream: a role delta, text or tool-call deltas (id, type and name first, then argument
 * pieces), a final chunk with `finish_reason`, and with `includeUsage` a last chunk of usage.
 */
export function chatChunks(
  turn: WireTurn,
  meta: CompletionMeta,
  includeUsage: boolean,
): ChatCompletionChunk[] {
  const chunk = (
    delta: ChatCompletionChunk.Choice.Delta,
    finish: ChatCompletionChunk.Choice['finish_reason'] = null,
  ): ChatCompletionChunk => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: DEMO_MODEL_ID,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: ChatCompletionChunk[] = [];
  chunks.push(chunk({ role: 'assistant', content: turn.text === null ? null : '', refusal: null }));
  if (turn.text) for (const piece of splitText(turn.text)) chunks.push(chunk({ content: piece }));
  turn.calls.forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const piece of splitArguments(call.arguments)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, turn.calls.length > 0 ? 'tool_calls' : 'stop'));
  if (includeUsage) {
    chunks.push({
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: DEMO_MODEL_ID,
      choices: [],
      usage: usageOf(turn),
    });
  }
  return chunks;
}
