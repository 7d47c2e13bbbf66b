/**
 * @module env
 * The only place that reads `process.env`. Every setting is validated once, at start-up, and a
 * bad value stops the server with a message that says which variable to fix and how.
 * Empty values count as unset, so `PORT=` in a `.env` file means "use the default".
 */
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER } from '@mcp-workshop/mcp-host/tasks';
import { commaList, parseEnv } from '@mcp-workshop/shared';
import { POSTGRES_PROTOCOL, redactDatabaseUrl } from '@mcp-workshop/task-store';
import { TELEMETRY_ENV } from '@mcp-workshop/telemetry';
import { z } from 'zod';
import { DEFAULT_FORECAST_URL, DEFAULT_GEOCODING_URL } from './weather/open-meteo.js';

/** Where the task database lives unless DATA_DIR says otherwise: next to this package, not the caller's cwd. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../data', import.meta.url));

/** express's names for the private ranges `trust proxy` accepts besides addresses and subnets. */
const TRUST_PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Longer than any sensible list; a longer value is refused, and quoted only in part. */
const MAX_TRUST_PROXY_LENGTH = 1000;

/** Only digits and the characters of addresses: no zone ids (`%eth0`), no spaces, no control characters. */
const isAddress = (text: string) => /^[\d.:a-f]+$/i.test(text) && isIP(text) !== 0;

/** A preset, an IP address, or an IP subnet whose prefix length (1–32, 1–128) fits its family (`10.0.0.0/8`, `fd00::/8`). */
function isTrustedProxy(item: string): boolean {
  if (TRUST_PROXY_PRESETS.has(item) || isAddress(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  if (prefix === undefined || rest.length > 0 || !isAddress(address) || !/^\d{1,3}$/.test(prefix))
    return false;
  // At least /1, as express requires: /0 would trust every peer to name any client.
  return Number(prefix) >= 1 && Number(prefix) <= (isIP(address) === 4 ? 32 : 128);
}

/** Whether express can take `value` as `trust proxy`, the way app.ts hands it over. */
function isTrustProxy(value: string): boolean {
  if (value.length > MAX_TRUST_PROXY_LENGTH || !/^[\x20-\x7e]*$/.test(value)) return false;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) >= 1 && Number(trimmed) <= 10;
  return trimmed.split(',').every((item) => isTrustedProxy(item.trim()));
}

/**
 * Handed to express as `trust proxy` (app.ts splits the string): a hop count from 1 to 10, or a
 * comma list of presets, addresses and subnets. Anything else would throw inside express on the
 * first request, or trust every peer to name any client.
 */
const TrustProxy = z
  .string()
  .refine(
    isTrustProxy,
    'must be a hop count from 1 to 10, or a comma list of loopback, linklocal, uniquelocal, ' +
      'IP addresses and IP subnets (e.g. "uniquelocal, 10.0.0.0/8, fd00::/8")',
  )
  .transform((value) => value.trim());

const DatabaseUrl = z
  .url({
    protocol: POSTGRES_PROTOCOL,
    error: 'must be a postgres:// or postgresql:// URL, e.g. postgres://user:password@127.0.0.1:5432/tasks',
  })
  .describe('Postgres for the tasks, shared by every replica; unset keeps them in SQLite under DATA_DIR.');

const EnvSchema = z.object({
  HOST: z.string().default('127.0.0.1').describe('Interface to bind; 0.0.0.0 only inside a container.'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  MCP_STATELESS: z.stringbool().default(false),
  MCP_SESSION_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1800),
  MCP_STALLED_RESPONSE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3600)
    .optional()
    .describe(
      'How long an answer (not an event stream) may wait on a client that stopped reading it, once the ' +
        'connection buffer is full; then the connection is dropped. Unset: 30.',
    ),
  MCP_MAX_SESSIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(1000)
    .describe('Live 2025 sessions in all; past it, 503 for everyone.'),
  MCP_MAX_SESSIONS_PER_CLIENT: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe(
      'Live 2025 sessions one client (subject, else address) may hold; past it, 429 for that client. ' +
        'Unset: 50, or half of MCP_MAX_SESSIONS when that is lower. At most MCP_MAX_SESSIONS.',
    ),
  MCP_MAX_STREAMS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(1024)
    .describe('Open GET and subscriptions/listen streams in all; past it, 503.'),
  MCP_MAX_STREAMS_PER_CLIENT: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe(
      'Open GET and subscriptions/listen streams (and 2025 calls waiting on the client) one client may ' +
        'hold; past it, 429. Unset: 16, or half of MCP_MAX_STREAMS when that is lower. At most MCP_MAX_STREAMS.',
    ),
  MCP_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(50),
  MCP_MAX_ACTIVE_TASKS_PER_USER: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER)
    .describe(
      'MCP Tasks one user (the signed-in subject; everyone together with sign-in off) may have working ' +
        'or waiting for input at once; one more gets an isError result saying to wait or cancel one.',
    ),
  // The fixtures live outside the catalogue (ADR 016): on, `main.ts` hands the start over to
  // dev/conformance-server, which serves the catalogue with them on these same settings.
  MCP_CONFORMANCE: z.stringbool().default(false),
  MCP_ALLOWED_HOSTS: commaList.optional(),
  MCP_ALLOWED_ORIGINS: commaList.optional(),
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  DATABASE_URL: DatabaseUrl.optional(),
  WEATHER_PROVIDER: z.enum(['offline', 'open-meteo']).default('offline'),
  OPEN_METEO_GEOCODING_URL: z.url().default(DEFAULT_GEOCODING_URL),
  OPEN_METEO_FORECAST_URL: z.url().default(DEFAULT_FORECAST_URL),
  WEATHER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MCP_RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(120)
    .describe('tools/call per client per minute; 0 turns the limit off.'),
  MCP_HANDSHAKE_RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(1200)
    .describe('Every other request per client per minute (initialize, lists, /health); 0 turns it off.'),
  MCP_AUTH_FAILURE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(60)
    .describe(
      'With sign-in on: requests per address per minute whose token is missing or fails the check; past it, 429 for such requests only (a valid token is always served). 0 turns it off.',
    ),
  MCP_TRUST_PROXY: TrustProxy.optional().describe(
    "Proxies whose X-Forwarded-For names the client (express's trust proxy): the load balancer's own " +
      'address and nothing a client can reach from (compose: mcp-lb, 172.31.250.2), behind a proxy that ' +
      'overwrites the header; unset: the peer address is the client, as without a proxy.',
  ),
  MCP_AUTH_ISSUER: z
    .url()
    .optional()
    .describe('OAuth issuer; setting it turns sign-in on for /mcp and /tools.'),
  MCP_RESOURCE_URL: z
    .url()
    .refine((url) => !url.includes('#'), 'A resource URL has no #fragment (RFC 8707).')
    .optional()
    .describe("This server's canonical URL: the resource tokens must be issued for."),
  // OpenTelemetry: off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (packages/telemetry/src/env.ts).
  ...TELEMETRY_ENV,
});

/** Sign-in needs both variables: an issuer to trust and the resource its tokens must name. */
const checkAuthPair = (env: z.output<typeof EnvSchema>, ctx: z.RefinementCtx) => {
  if (env.MCP_AUTH_ISSUER && !env.MCP_RESOURCE_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['MCP_RESOURCE_URL'],
      message: "required when MCP_AUTH_ISSUER is set: this server's own URL, e.g. http://127.0.0.1:3000/mcp",
    });
  }
  if (env.MCP_RESOURCE_URL && !env.MCP_AUTH_ISSUER) {
    ctx.addIssue({
      code: 'custom',
      path: ['MCP_AUTH_ISSUER'],
      message: 'required when MCP_RESOURCE_URL is set: the URL of the OAuth authorization server to trust',
    });
  }
};

/**
 * A client's share sits under the global cap: one set above it could never be reached, and says
 * the operator meant something else, so start-up stops and names both settings.
 */
const checkShares = (env: z.output<typeof EnvSchema>, ctx: z.RefinementCtx) => {
  const pairs = [
    ['MCP_MAX_SESSIONS_PER_CLIENT', 'MCP_MAX_SESSIONS'],
    ['MCP_MAX_STREAMS_PER_CLIENT', 'MCP_MAX_STREAMS'],
  ] as const;
  for (const [share, cap] of pairs) {
    const perClient = env[share];
    if (perClient !== undefined && perClient > env[cap]) {
      ctx.addIssue({
        code: 'custom',
        path: [share],
        message: `${perClient} is above ${cap}=${env[cap]}: one client could take every place. Set it below ${cap} (or unset it for half of ${cap}, at most the default).`,
      });
    }
  }
};

export type ServerEnv = z.infer<typeof EnvSchema>;

/** Every variable the server reads; `scripts/check-compose.mjs` holds docker-compose.yml to this list. */
export const SERVER_ENV_KEYS = Object.keys(EnvSchema.shape) as ReadonlyArray<keyof ServerEnv>;

/** Parses an environment (default: `process.env`); throws an `EnvError` naming every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): ServerEnv {
  return parseEnv(
    EnvSchema.superRefine(checkAuthPair).superRefine(checkShares),
    withBadValuesShortened(source),
  );
}

/**
 * The error for a bad value quotes it: a bad DATABASE_URL can still hold a password, and an
 * oversized MCP_TRUST_PROXY would fill the terminal. Both stay invalid once shortened.
 */
function withBadValuesShortened(source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  let shown = source;
  const url = source.DATABASE_URL;
  if (url?.trim() && !DatabaseUrl.safeParse(url).success) {
    shown = { ...shown, DATABASE_URL: redactDatabaseUrl(url) };
  }
  const proxies = source.MCP_TRUST_PROXY;
  if (proxies && proxies.length > MAX_TRUST_PROXY_LENGTH) {
    shown = { ...shown, MCP_TRUST_PROXY: `${proxies.slice(0, 40)}… (${proxies.length} characters)` };
  }
  return shown;
}

export { EnvError } from '@mcp-workshop/shared';
