/**
 * @module auth/scopes
 * Which OAuth scopes an MCP message needs. Each tool and prompt declares its own scopes in its
 * file (`defineTool({ scopes })`, `WorkshopPrompt.scopes`); resources that read tasks need
 * `tasks:read`. Everything else, lists and the handshake included, needs only a valid token, so a
 * client can discover what exists before it asks for more. Pure functions: `auth/guard.ts` turns
 * the answer into a 403.
 */
import { type MessageReading, type RequestReading, readMessage, schemeOf } from '../http/request-reading.js';

export const TASKS_READ = 'tasks:read';
export const TASKS_WRITE = 'tasks:write';
/** Every scope this server understands, as published in its protected-resource metadata. */
export const SCOPES_SUPPORTED: readonly string[] = [TASKS_READ, TASKS_WRITE];
/** The `_meta` key under which `tools/list` shows each tool's scopes. */
export const REQUIRED_SCOPES_META_KEY = 'mcp-workshop/requiredScopes';

/** Scopes by tool name and by prompt name; names not listed need none. */
export interface ScopePolicy {
  tools: ReadonlyMap<string, readonly string[]>;
  prompts: ReadonlyMap<string, readonly string[]>;
}

export function scopePolicy(
  tools: ReadonlyArray<{ name: string; scopes: readonly string[] }>,
  prompts: ReadonlyArray<{ name: string; scopes: readonly string[] }>,
): ScopePolicy {
  return {
    tools: new Map(tools.map((tool) => [tool.name, tool.scopes])),
    prompts: new Map(prompts.map((prompt) => [prompt.name, prompt.scopes])),
  };
}

/**
 * A URI that names tasks (`tasks://all`, `tasks://3`, the template `tasks://{id}`), judged on the
 * URI as the SDK will match it (`http/request-reading.ts`), so `ta\tsks://all` or `\u0000tasks://1`
 * need the scope just as `tasks://all` does.
 */
export function readsTasks(normalizedUri: string): boolean {
  return schemeOf(normalizedUri) === 'tasks';
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
      return message.uris.some(readsTasks) ? [TASKS_READ] : [];
    case 'completion/complete':
      // Completions of a task argument or a tasks:// template list task ids, so they read tasks.
      if (message.uris.length > 0) return message.uris.some(readsTasks) ? [TASKS_READ] : [];
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

/** What `granted` lacks of `needed`. */
export function missingScopes(needed: readonly string[], granted: readonly string[]): string[] {
  return needed.filter((scope) => !granted.includes(scope));
}
