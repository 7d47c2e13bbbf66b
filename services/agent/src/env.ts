/**
 * @module env
 * The only place that reads `process.env` in the agent. Empty values count as unset, so
 * `OPENAI_API_KEY=` in a `.env` file means "no key": the offline demo model answers.
 */
import { parseEnv } from '@mcp-workshop/shared';
import { TELEMETRY_ENV } from '@mcp-workshop/telemetry';
import { z } from 'zod';

/** Where `pnpm start` runs the demo model (services/demo-model); docker-compose points at its own. */
export const DEFAULT_DEMO_MODEL_URL = 'http://127.0.0.1:3002/v1';

const optionalText = z.string().optional();
const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

const EnvSchema = z.object({
  MCP_SERVER_URL: z.url().default('http://127.0.0.1:3000/mcp'),
  MCP_SERVERS_CONFIG: optionalText.describe(
    'Path to an mcpServers JSON file (Claude Desktop / VS Code format).',
  ),
  MCP_CONNECT_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(8),
  MCP_OAUTH_CLIENT_ID: optionalText.describe(
    'Sign in to MCP_SERVER_URL with the client-credentials grant, as this OAuth client.',
  ),
  // Never validated by value: a bad value would be printed in the error, and this one is a secret.
  MCP_OAUTH_CLIENT_SECRET: optionalText,
  MCP_OAUTH_ISSUER: z
    .url()
    .optional()
    .describe('The authorization server the client is registered with; the secret is sent to it only.'),
  MCP_OAUTH_SCOPE: optionalText.describe(
    'Scopes to ask for first, space-separated; default: what the server asks for.',
  ),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_MODEL: optionalText,
  OPENAI_API: z.enum(['chat', 'responses']).default('chat'),
  DEMO_MODEL_URL: z
    .url()
    .default(DEFAULT_DEMO_MODEL_URL)
    .describe(
      'The offline demo model, used while OPENAI_API_KEY and OPENAI_BASE_URL are unset; `pnpm ask` starts one when nothing answers.',
    ),
  AGENT_HOST: z.string().default('127.0.0.1'),
  AGENT_PORT: z.coerce.number().int().min(0).max(65_535).default(3001),
  AGENT_ALLOWED_HOSTS: commaList
    .optional()
    .describe('Extra Host names the HTTP API accepts, comma-separated, e.g. `agent` in Docker.'),
  AGENT_ALLOWED_ORIGINS: commaList
    .optional()
    .describe('Extra Origin hostnames the HTTP API accepts, comma-separated.'),
  AGENT_MAX_TOOL_ROUNDS: z.coerce.number().int().min(1).max(50).default(8),
  AGENT_TOOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  AGENT_RESULT_BUDGET_CHARS: z.coerce.number().int().min(200).max(1_000_000).default(16_000),
  AGENT_MAX_CONVERSATIONS: z.coerce.number().int().min(1).max(100_000).default(100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  TRACE_VIEWER_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .refine(
      (url) => url.includes('{traceId}'),
      'must contain {traceId}, e.g. http://localhost:16686/trace/{traceId}',
    )
    // The page receives it as it is: a user:password@ in it would be shown to every visitor.
    .refine((url) => !/^[a-z]+:\/\/[^/]*@/i.test(url), 'must not contain a user name or password')
    .optional()
    .describe("A link to each turn's trace on the chat page; {traceId} is replaced by the trace id."),
  // OpenTelemetry: off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (packages/telemetry/src/env.ts).
  ...TELEMETRY_ENV,
});

/**
 * Sign-in needs the client id and the issuer together. With a secret the agent signs in as a machine
 * (client credentials); without one, a person signs in (authorization code with PKCE).
 */
const checkOAuth = (env: z.output<typeof EnvSchema>, ctx: z.RefinementCtx) => {
  const set = {
    MCP_OAUTH_CLIENT_ID: env.MCP_OAUTH_CLIENT_ID !== undefined,
    MCP_OAUTH_ISSUER: env.MCP_OAUTH_ISSUER !== undefined,
  };
  const any =
    Object.values(set).some(Boolean) ||
    env.MCP_OAUTH_CLIENT_SECRET !== undefined ||
    env.MCP_OAUTH_SCOPE !== undefined;
  if (!any) return;
  for (const [name, present] of Object.entries(set)) {
    if (!present) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message:
          'set MCP_OAUTH_CLIENT_ID and MCP_OAUTH_ISSUER together to sign in (and MCP_OAUTH_CLIENT_SECRET for a machine)',
      });
    }
  }
};

export type AgentEnv = z.infer<typeof EnvSchema>;

/** Every variable the agent reads; `scripts/check-compose.mjs` holds docker-compose.yml to this list. */
export const AGENT_ENV_KEYS = Object.keys(EnvSchema.shape) as ReadonlyArray<keyof AgentEnv>;

/** Parses an environment (default: `process.env`); throws an `EnvError` naming every bad variable. */
export function loadAgentEnv(source: NodeJS.ProcessEnv = process.env): AgentEnv {
  return parseEnv(EnvSchema.superRefine(checkOAuth), source);
}

export { EnvError } from '@mcp-workshop/shared';
