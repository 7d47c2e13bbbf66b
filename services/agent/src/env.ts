/**
 * @module env
 * The only place that reads `process.env` in the agent. Empty values count as unset, so
 * `OPENAI_API_KEY=` in a `.env` file means "no key": the offline demo model answers.
 */
import { commaList, EnvError, parseEnv } from '@mcp-workshop/shared';
import { TELEMETRY_ENV } from '@mcp-workshop/telemetry';
import { z } from 'zod';
import { DEFAULT_TOOL_SEARCH } from './discovery/threshold.js';

/** Where `pnpm start` runs the demo model (services/demo-model); docker-compose points at its own. */
export const DEFAULT_DEMO_MODEL_URL = 'http://127.0.0.1:3002/v1';

const optionalText = z.string().optional();
/** An origin exactly as a browser sends it: scheme, host and port, nothing else. */
const origin = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value;
  } catch {
    return false;
  }
}, 'each must be an origin like http://chat.example:8080 (scheme, host, port; no path or slash)');

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
    .pipe(z.array(origin))
    .optional()
    .describe(
      "Extra browser origins the HTTP API accepts, comma-separated, each scheme://host[:port]; the page's own origin is always accepted.",
    ),
  // Never validated by value in the schema: a bad value would be printed in the error (apiTokenProblem).
  AGENT_API_TOKEN: optionalText.describe(
    'The HTTP API secret: Authorization: Bearer <it>, or the one-time link the agent prints. Off loopback without it, the agent makes one of its own at start (generatesApiToken).',
  ),
  AGENT_RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(30)
    .describe('Chat turns (and, separately, answers to input requests) per caller per minute.'),
  AGENT_VIEW_SANDBOX_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_535)
    .default(3004)
    .describe(
      "The sandbox proxy for MCP Apps views: a second origin the chat page frames tools' views from (0: any free port).",
    ),
  AGENT_VIEW_SANDBOX_ORIGIN: origin
    .optional()
    .describe(
      "The sandbox proxy's origin as the browser reaches it, when that is not the page's host name at AGENT_VIEW_SANDBOX_PORT (a proxy, another published port).",
    ),
  AGENT_VIEW_CALLS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(60)
    .describe("Views' tool calls and view loads, together, per caller per minute."),
  AGENT_MAX_TOOL_ROUNDS: z.coerce.number().int().min(1).max(50).default(8),
  AGENT_TOOL_SEARCH: z
    .enum(['auto', 'on', 'off'])
    .default(DEFAULT_TOOL_SEARCH.mode)
    .describe(
      'Offer the model search_tools instead of every tool: auto (from AGENT_TOOL_SEARCH_MIN_TOOLS tools or AGENT_TOOL_SEARCH_MIN_TOKENS tokens), on, or off.',
    ),
  AGENT_TOOL_SEARCH_MIN_TOOLS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(DEFAULT_TOOL_SEARCH.minTools)
    .describe('With AGENT_TOOL_SEARCH=auto: search from this many tools, across all servers.'),
  AGENT_TOOL_SEARCH_MIN_TOKENS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000_000)
    .default(DEFAULT_TOOL_SEARCH.minTokens)
    .describe(
      "With AGENT_TOOL_SEARCH=auto: search from this many tokens of the tool list (o200k_base over the functions' JSON).",
    ),
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

/** Loopback addresses: only processes on this machine reach a server bound to one of them. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Shortest AGENT_API_TOKEN: 32 characters, e.g. the 64 of `openssl rand -hex 32`. */
export const MIN_API_TOKEN_CHARS = 32;
/** Words that mark a value copied from documentation or a template rather than generated. */
const PLACEHOLDER = /change.?me|replace|example|default|placeholder|secret|password|workshop|your|xxxx|todo/i;

/**
 * Why this AGENT_API_TOKEN must not be used, or undefined when it may (also when it is unset: see
 * {@link generatesApiToken}). Checked outside the zod schema, because parseEnv prints every rejected
 * value and this one is a secret. A value that is set is held to these rules on loopback too.
 */
export function apiTokenProblem(env: Pick<AgentEnv, 'AGENT_API_TOKEN'>): string | undefined {
  const token = env.AGENT_API_TOKEN;
  if (token === undefined) return undefined;
  const generate = 'generate one with `openssl rand -hex 32`';
  if (token.length < MIN_API_TOKEN_CHARS)
    return `too short (${token.length} characters, at least ${MIN_API_TOKEN_CHARS}): ${generate}`;
  if (/\s/.test(token)) return `must not contain spaces: ${generate}`;
  if (new Set(token).size < 8 || PLACEHOLDER.test(token))
    return `looks like a placeholder or a public value, not a generated secret: ${generate}`;
  return undefined;
}

/**
 * True when the API must be protected and no AGENT_API_TOKEN is set: off loopback anyone who
 * reaches the port could chat and run tools as the agent. The entry (`index.ts`) then makes a
 * secret of its own for this run, as a Jupyter server does, and prints only the one-time link to
 * the chat page (`api-access.ts`), never the secret. A set AGENT_API_TOKEN always wins. Pure: the
 * randomness is the entry's.
 */
export function generatesApiToken(env: Pick<AgentEnv, 'AGENT_HOST' | 'AGENT_API_TOKEN'>): boolean {
  return env.AGENT_API_TOKEN === undefined && !isLoopbackHost(env.AGENT_HOST);
}

export type AgentEnv = z.infer<typeof EnvSchema>;

/**
 * Secrets .env may leave empty for docker compose: off loopback the agent then makes its own at
 * start ({@link generatesApiToken}); one set in .env wins. `scripts/check-compose.mjs` holds
 * docker-compose.yml to this rule.
 */
export const AGENT_GENERATED_SECRET_KEYS: ReadonlyArray<keyof AgentEnv> = ['AGENT_API_TOKEN'];

/** Every variable the agent reads; `scripts/check-compose.mjs` holds docker-compose.yml to this list. */
export const AGENT_ENV_KEYS = Object.keys(EnvSchema.shape) as ReadonlyArray<keyof AgentEnv>;

/** Parses an environment (default: `process.env`); throws an `EnvError` naming every bad variable. */
export function loadAgentEnv(source: NodeJS.ProcessEnv = process.env): AgentEnv {
  const env = parseEnv(EnvSchema.superRefine(checkOAuth), source);
  const problem = apiTokenProblem(env);
  if (problem) throw new EnvError(`Invalid environment. Fix this variable:\n  AGENT_API_TOKEN: ${problem}`);
  return env;
}

/** `process.env` with `overrides` on top: where the services are, as the launcher says (`launcher-handoff.ts`). */
export function loadAgentEnvWith(overrides: Readonly<Record<string, string>>): AgentEnv {
  return loadAgentEnv({ ...process.env, ...overrides });
}

export { EnvError };
