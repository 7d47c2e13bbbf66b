/**
 * @module kit/define-prompt
 * What every catalogue prompt shares: the `CataloguePrompt` shape a catalogue lists, the argument
 * text schema, and the error mapping. Prompt errors are protocol errors (spec P4): a bad argument
 * is -32602 with a message that says how to fix it, anything else is -32603 that leaks nothing.
 * A prompt that embeds tasks also checks its scopes on the request's own token
 * (`promptCaller`), so a route that forgets the HTTP-level check still cannot leak them.
 */

import { ToolError } from '@mcp-workshop/shared';
import {
  type GetPromptResult,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { missingScopes, ownerOf } from '../auth/caller.js';
import type { Logger } from '../logger.js';
import type { CataloguePrompt } from './catalogue.js';

/** An argument the caller got wrong: JSON-RPC -32602, before any work is done. */
export function invalidArgument(prompt: string, message: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid arguments for prompt ${prompt}: ${message}`,
  );
}

/**
 * The owner whose tasks `prompts/get` may embed, after checking the prompt's `scopes` on the
 * request's own token; a JSON-RPC error naming the missing scopes otherwise, before any task is read.
 */
export function promptCaller(
  prompt: Pick<CataloguePrompt<unknown>, 'name' | 'scopes'>,
  ctx: ServerContext,
): string {
  const authInfo = ctx.http?.authInfo;
  // No auth info means sign-in is off: with it on, the HTTP layer lets no request through without a token.
  const missing = authInfo ? missingScopes(prompt.scopes, authInfo.scopes) : [];
  if (missing.length > 0) {
    const names = missing.join(' ');
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Prompt ${prompt.name} needs the OAuth scope${missing.length === 1 ? '' : 's'} ${names}, which this sign-in did not grant. Sign in again and grant ${names}.`,
    );
  }
  return ownerOf(authInfo);
}

/** Tabs and line breaks are fine in free text; other control characters (NUL, ESC…) never are. */
function hasForbiddenControl(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const isControl = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    if (isControl && char !== '\t' && char !== '\n' && char !== '\r') return true;
  }
  return false;
}

/**
 * A string argument bounded to `max` characters with no control characters but tabs and line
 * breaks. Prompt arguments are strings on the wire, so every argument starts from this.
 */
export function promptText(max: number) {
  return z
    .string()
    .max(max)
    .refine((text) => !hasForbiddenControl(text), 'must not contain control characters');
}

/**
 * Runs a prompt's body so that failures follow P4. A `ProtocolError` (a bad argument) passes
 * through. A `ToolError` (e.g. the weather source is down) keeps its message, which was written
 * to be shown, but is -32603: the caller did nothing wrong. Anything else is a bug: logged with
 * a reference, and the client only sees the reference, never the message or the stack.
 */
export async function runPrompt(
  name: string,
  logger: Logger,
  body: () => GetPromptResult | Promise<GetPromptResult>,
): Promise<GetPromptResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    if (error instanceof ToolError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
    const ref = globalThis.crypto.randomUUID().slice(0, 8);
    logger.error({ err: error, prompt: name, ref }, 'prompt threw an unexpected error');
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Prompt ${name} failed because of an internal error (ref ${ref}).`,
    );
  }
}

/**
 * Wraps a completion source so a failure (say, the task database is locked) gives no
 * suggestions instead of an error: completion is a convenience, and the SDK docs say never throw.
 */
export function safeCompletions(
  name: string,
  logger: Logger,
  complete: (value: string) => string[] | Promise<string[]>,
): (value: string) => Promise<string[]> {
  return async (value) => {
    try {
      return await complete(value);
    } catch (error) {
      logger.warn({ err: error, prompt: name }, 'prompt completion failed; returning no suggestions');
      return [];
    }
  };
}
