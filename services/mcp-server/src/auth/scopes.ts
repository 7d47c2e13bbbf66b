/**
 * @module auth/scopes
 * Which OAuth scopes an MCP message needs. Each tool and prompt declares its own scopes in its
 * file (`defineTool({ scopes })`, `WorkshopPrompt.scopes`); resources that read tasks need
 * `tasks:read`. Everything else, lists and the handshake included, needs only a valid token, so a
 * client can discover what exists before it asks for more. Pure functions: `auth/guard.ts` turns
 * the answer into a 403.
 */
import { isPlainObject } from '@mcp-workshop/shared';

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

/** A URI that names tasks: `tasks://all`, `tasks://3`, and the template `tasks://{id}`. */
function readsTasks(uri: unknown): boolean {
  return typeof uri === 'string' && uri.trim().toLowerCase().startsWith('tasks:');
}

function stringAt(value: unknown, key: string): unknown {
  return isPlainObject(value) ? value[key] : undefined;
}

/** The scopes one JSON-RPC message needs. Anything malformed needs none: the SDK refuses it anyway. */
export function scopesForMessage(message: unknown, policy: ScopePolicy): readonly string[] {
  const method = stringAt(message, 'method');
  const params = stringAt(message, 'params');
  switch (method) {
    case 'tools/call': {
      const name = stringAt(params, 'name');
      return typeof name === 'string' ? (policy.tools.get(name) ?? []) : [];
    }
    case 'prompts/get': {
      const name = stringAt(params, 'name');
      return typeof name === 'string' ? (policy.prompts.get(name) ?? []) : [];
    }
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return readsTasks(stringAt(params, 'uri')) ? [TASKS_READ] : [];
    case 'subscriptions/listen': {
      const wanted = stringAt(stringAt(params, 'notifications'), 'resourceSubscriptions');
      return Array.isArray(wanted) && wanted.some(readsTasks) ? [TASKS_READ] : [];
    }
    case 'completion/complete': {
      // Completions of a task argument or a tasks:// template list task ids, so they read tasks.
      const ref = stringAt(params, 'ref');
      if (stringAt(ref, 'type') === 'ref/resource')
        return readsTasks(stringAt(ref, 'uri')) ? [TASKS_READ] : [];
      const name = stringAt(ref, 'name');
      return typeof name === 'string' ? (policy.prompts.get(name) ?? []) : [];
    }
    default:
      return [];
  }
}

/** The scopes a POST body needs: one message, or every message of a (2025-03-26) batch. */
export function scopesForBody(body: unknown, policy: ScopePolicy): string[] {
  const messages = Array.isArray(body) ? body : [body];
  const needed = new Set<string>();
  for (const message of messages) for (const scope of scopesForMessage(message, policy)) needed.add(scope);
  return [...needed].sort();
}

/** What `granted` lacks of `needed`. */
export function missingScopes(needed: readonly string[], granted: readonly string[]): string[] {
  return needed.filter((scope) => !granted.includes(scope));
}
