/**
 * @module scopes
 * The OAuth scopes of this server's tools, prompts and resources, as the host enforces them when
 * sign-in is on. Each tool and prompt declares its own scopes in its file (`defineTool({ scopes })`,
 * `WorkshopPrompt.scopes`); `tasks://` resources need `tasks:read`. Everything else needs only a
 * valid token. Test: `scopes.test.ts`.
 */
import { createScopePolicy, type ScopePolicy } from '@mcp-workshop/mcp-host/policy';

export const TASKS_READ = 'tasks:read';
export const TASKS_WRITE = 'tasks:write';
/** Every scope this server understands, as published in its protected-resource metadata. */
export const SCOPES_SUPPORTED: readonly string[] = [TASKS_READ, TASKS_WRITE];
/** The `_meta` key under which `tools/list` shows each tool's scopes. */
export const REQUIRED_SCOPES_META_KEY = 'mcp-workshop/requiredScopes';

/** The policy for these tools and prompts (the server's own, or an exercise's), with `tasks://` needing `tasks:read`. */
export function scopePolicy(
  tools: ReadonlyArray<{ name: string; scopes: readonly string[] }>,
  prompts: ReadonlyArray<{ name: string; scopes: readonly string[] }>,
): ScopePolicy {
  return createScopePolicy({
    supported: SCOPES_SUPPORTED,
    tools,
    prompts,
    resourceSchemes: { tasks: [TASKS_READ] },
  });
}
