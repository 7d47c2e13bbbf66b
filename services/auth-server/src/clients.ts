/**
 * @module clients
 * The clients this server knows, registered up front (no dynamic registration): one for the
 * agent as a machine, a read-only one to show a 403, one for a person in `pnpm chat` or the web
 * page, and MCP Inspector. A token gets what the client asked for, narrowed to what that client may
 * have on the MCP server (`resourceScopesFor`): asking for more is not an error (RFC 6749 §3.3),
 * which matters because MCP clients ask for every scope the server's challenge names.
 */
import type { ClientMetadata } from 'oidc-provider';

export const TASK_SCOPES = 'tasks:read tasks:write';
/** Every scope this server issues: OpenID's own two, and the MCP server's. */
export const SCOPES = ['openid', 'offline_access', 'tasks:read', 'tasks:write'] as const;

/**
 * MCP Inspector's OAuth callbacks (its UI on port 6274: the normal flow and its debugger), under
 * both loopback names: Inspector 2.x prints `http://127.0.0.1:6274`, and a page opened there sends
 * a 127.0.0.1 redirect.
 */
export const INSPECTOR_REDIRECTS = [
  'http://localhost:6274/oauth/callback',
  'http://localhost:6274/oauth/callback/debug',
  'http://127.0.0.1:6274/oauth/callback',
  'http://127.0.0.1:6274/oauth/callback/debug',
];

/** Clients limited to less than every task scope; the rest may have `TASK_SCOPES`. */
const LIMITED_CLIENTS: Record<string, string> = { 'workshop-reader': 'tasks:read' };

/** The scopes `clientId` may get in tokens for an MCP server. */
export function resourceScopesFor(clientId: string): string {
  return LIMITED_CLIENTS[clientId] ?? TASK_SCOPES;
}

export interface ClientSecrets {
  agent: string;
  reader: string;
}

export function workshopClients(secrets: ClientSecrets): ClientMetadata[] {
  return [
    {
      client_id: 'workshop-agent',
      client_secret: secrets.agent,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    {
      client_id: 'workshop-reader',
      client_secret: secrets.reader,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    {
      // A native app (RFC 8252): its loopback redirect may use any port, which the chat picks at run time.
      client_id: 'workshop-chat',
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: ['http://127.0.0.1/callback', 'http://localhost/callback'],
      scope: `openid offline_access ${TASK_SCOPES}`,
    },
    {
      client_id: 'mcp-inspector',
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: INSPECTOR_REDIRECTS,
      scope: `openid offline_access ${TASK_SCOPES}`,
    },
  ];
}
