/**
 * @module auth/scopes
 * Which OAuth scopes an MCP message needs, from a policy the server passes in: scopes by tool
 * name, by prompt name and by resource URI scheme. Everything else, lists and the handshake
 * included, needs only a valid token, so a client can discover what exists before it asks for
 * more. Pure functions: `auth/guard.ts` turns the answer into a 403.
 */
import { type MessageReading, type RequestReading, readMessage, schemeOf } from '../http/request-reading.js';
import type { ScopePolicy } from './policy.js';

export { missingScopes } from './caller.js';
export type { ScopePolicy, ScopeRules } from './policy.js';
export { createScopePolicy } from './policy.js';

/**
 * The scopes a set of URIs needs, judged on each URI as the SDK will match it
 * (`http/request-reading.ts`), so `ta\tsks://all` or `\u0000tasks://1` need the scope of
 * `tasks://` just as `tasks://all` does.
 */
function scopesForUris(uris: readonly string[], policy: ScopePolicy): readonly string[] {
  const needed = new Set<string>();
  for (const uri of uris)
    for (const scope of policy.resourceSchemes.get(schemeOf(uri)) ?? []) needed.add(scope);
  return [...needed];
}

/** The scopes one message needs, from its reading. Anything malformed needs none: the SDK refuses it anyway. */
export function scopesForMessageReading(message: MessageReading, policy: ScopePolicy): readonly string[] {
  switch (message.method) {
    case 'tools/call':
      return message.name === undefined ? [] : (policy.tools.get(message.name) ?? []);
    case 'prompts/get':
      return message.name === undefined ? [] : (policy.prompts.get(message.name) ?? []);
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
    case 'subscriptions/listen':
      return scopesForUris(message.uris, policy);
    case 'completion/complete':
      // Completing a template's argument lists what the template names (task ids for tasks://{id}),
      // so it needs what reading does; a prompt's argument needs what the prompt does.
      if (message.uris.length > 0) return scopesForUris(message.uris, policy);
      return message.name === undefined ? [] : (policy.prompts.get(message.name) ?? []);
    default:
      return [];
  }
}

/** The scopes a whole request needs: one message, or every message of a (2025-03-26) batch. */
export function scopesForReading(reading: Pick<RequestReading, 'messages'>, policy: ScopePolicy): string[] {
  const needed = new Set<string>();
  for (const message of reading.messages)
    for (const scope of scopesForMessageReading(message, policy)) needed.add(scope);
  return [...needed].sort();
}

/** The scopes one raw JSON-RPC message needs (read the same way as a request's messages). */
export function scopesForMessage(message: unknown, policy: ScopePolicy): readonly string[] {
  return scopesForMessageReading(readMessage(message), policy);
}

/** The scopes a raw POST body needs. */
export function scopesForBody(body: unknown, policy: ScopePolicy): string[] {
  return scopesForReading({ messages: (Array.isArray(body) ? body : [body]).map(readMessage) }, policy);
}
