/**
 * @module auth/policy
 * A server's scope policy: which scopes each tool, prompt and resource scheme needs. Pure data
 * and no imports, so a server builds its policy (`@mcp-workshop/mcp-host/policy`) without loading
 * the HTTP stack; `auth/scopes.ts` applies it to requests.
 */

/** What a server's scopes guard: by tool name, by prompt name, and by resource URI scheme. */
export interface ScopePolicy {
  /** Every scope the server understands, as published in its protected-resource metadata. */
  supported: readonly string[];
  tools: ReadonlyMap<string, readonly string[]>;
  prompts: ReadonlyMap<string, readonly string[]>;
  /** Scopes by URI scheme (`tasks` for `tasks://…`): reading, subscribing to or completing such a URI needs them. */
  resourceSchemes: ReadonlyMap<string, readonly string[]>;
}

/** What a server passes to {@link createScopePolicy}; names and schemes not listed need no scope. */
export interface ScopeRules {
  supported: readonly string[];
  tools?: ReadonlyArray<{ name: string; scopes: readonly string[] }>;
  prompts?: ReadonlyArray<{ name: string; scopes: readonly string[] }>;
  resourceSchemes?: Readonly<Record<string, readonly string[]>>;
}

export function createScopePolicy(rules: ScopeRules): ScopePolicy {
  const byName = (entries: ScopeRules['tools'] = []) =>
    new Map(entries.map((entry) => [entry.name, entry.scopes] as const));
  const schemes = Object.entries(rules.resourceSchemes ?? {}).map(
    ([scheme, scopes]) => [scheme.toLowerCase(), scopes] as const,
  );
  return {
    supported: rules.supported,
    tools: byName(rules.tools),
    prompts: byName(rules.prompts),
    resourceSchemes: new Map(schemes),
  };
}
