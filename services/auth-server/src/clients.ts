/**
 * @module clients
 * The clients this server knows, registered up front (no dynamic registration): one for the
 * agent as a machine, a read-only one to show a 403, one for a person in `pnpm chat` or the web
 * page, and MCP Inspector. Scopes a client may get are its `scope`; a token gets the intersection
 * of that, what it asked for, and what the resource offers.
 */
import type { ClientMetadata } from 'oidc-provider';

export const TASK_SCOPES = 'tasks:read tasks:write';
/** Every scope this server issues: OpenID's own two, and the MCP server's. */
export const SCOPES = ['openid', 'offline_access', 'tasks:read', 'tasks:write'] as const;

/** MCP Inspector's OAuth callbacks (its UI on port 6274: the normal flow and its debugger). */
export const INSPECTOR_REDIRECTS = [
  'http://localhost:6274/oauth/callback',
  'http://localhost:6274/oauth/callback/debug',
];

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
      scope: TASK_SCOPES,
    },
    {
      client_id: 'workshop-reader',
      client_secret: secrets.reader,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'tasks:read',
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
