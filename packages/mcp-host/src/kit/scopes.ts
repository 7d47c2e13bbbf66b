/**
 * @module kit/scopes
 * The `_meta` key under which `tools/list` shows each tool's OAuth scopes, so a client knows which
 * scope to ask for before a call is refused.
 */
export const REQUIRED_SCOPES_META_KEY = 'mcp-workshop/requiredScopes';
