/**
 * @module run/env
 * The host's settings: where to listen, the era and session limits, the rate limits, sign-in,
 * logging and telemetry. A catalogue adds its own variables (`defineCatalogue({ env })`), and
 * `loadRunEnv` validates both at once, so one error names every bad variable, the catalogue's
 * and the host's alike. Empty values count as unset, so `PORT=` in a `.env` file means the default.
 */
import { isIP } from 'node:net';
import { commaList, parseEnv } from '@mcp-workshop/shared';
import { TELEMETRY_ENV } from '@mcp-workshop/telemetry';
import { z } from 'zod';
import { DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER } from '../tasks/runtime.js';

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

const limit = (max: number) => z.coerce.number().int().min(1).max(max);
const perMinute = () => z.coerce.number().int().min(0).max(1_000_000);

/** The host's own variables; every catalogue is served with them. */
export const HOST_ENV = {
  HOST: z.string().default('127.0.0.1').describe('Interface to bind; 0.0.0.0 only inside a container.'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  MCP_STATELESS: z.stringbool().default(false),
  MCP_SESSION_TTL_SECONDS: limit(86_400).default(1800),
  MCP_STALLED_RESPONSE_SECONDS: limit(3600)
    .optional()
    .describe(
      'How long an answer (not an event stream) may wait on a client that stopped reading it, once the ' +
        'connection buffer is full; then the connection is dropped. Unset: 30.',
    ),
  MCP_MAX_SESSIONS: limit(100_000)
    .default(1000)
    .describe('Live 2025 sessions in all; past it, 503 for everyone.'),
  MCP_MAX_SESSIONS_PER_CLIENT: limit(100_000)
    .optional()
    .describe(
      'Live 2025 sessions one client (subject, else address) may hold; past it, 429 for that client. ' +
        'Unset: 50, or half of MCP_MAX_SESSIONS when that is lower. At most MCP_MAX_SESSIONS.',
    ),
  MCP_MAX_STREAMS: limit(100_000)
    .default(1024)
    .describe('Open GET and subscriptions/listen streams in all; past it, 503.'),
  MCP_MAX_STREAMS_PER_CLIENT: limit(100_000)
    .optional()
    .describe(
      'Open GET and subscriptions/listen streams (and 2025 calls waiting on the client) one client may ' +
        'hold; past it, 429. Unset: 16, or half of MCP_MAX_STREAMS when that is lower. At most MCP_MAX_STREAMS.',
    ),
  MCP_PAGE_SIZE: limit(1000).default(50),
  MCP_MAX_ACTIVE_TASKS_PER_USER: limit(10_000)
    .default(DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER)
    .describe(
      'MCP Tasks one user (the signed-in subject; everyone together with sign-in off) may have working ' +
        'or waiting for input at once; one more gets an isError result saying to wait or cancel one.',
    ),
  MCP_ALLOWED_HOSTS: commaList.optional(),
  MCP_ALLOWED_ORIGINS: commaList.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MCP_RATE_LIMIT_PER_MINUTE: perMinute()
    .default(120)
    .describe('tools/call per client per minute; 0 turns the limit off.'),
  MCP_HANDSHAKE_RATE_LIMIT_PER_MINUTE: perMinute()
    .default(1200)
    .describe('Every other request per client per minute (initialize, lists, /health); 0 turns it off.'),
  MCP_AUTH_FAILURE_LIMIT_PER_MINUTE: perMinute()
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
};

const HostEnvSchema = z.object(HOST_ENV);
export type HostEnv = z.output<typeof HostEnvSchema>;

/** A catalogue's own settings: a zod shape of variable names, as `defineCatalogue({ env })` takes it. */
export type EnvShape = z.ZodRawShape;

/** The host's settings plus a catalogue's. */
export type RunEnv<Shape extends EnvShape = EnvShape> = HostEnv & z.output<z.ZodObject<Shape>>;

/** Sign-in needs both variables: an issuer to trust and the resource its tokens must name. */
function checkAuthPair(env: HostEnv, ctx: z.RefinementCtx): void {
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
}

/**
 * A client's share sits under the global cap: one set above it could never be reached, and says
 * the operator meant something else, so start-up stops and names both settings.
 */
function checkShares(env: HostEnv, ctx: z.RefinementCtx): void {
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
}

/** Every variable a catalogue with `shape` is served with: what check-compose holds docker-compose.yml to. */
export function runEnvKeys(shape: EnvShape = {}): string[] {
  return [...Object.keys(HOST_ENV), ...Object.keys(shape)];
}

/**
 * Parses the host's variables and a catalogue's from `source` (default: `process.env`); throws an
 * `EnvError` naming every bad variable. A catalogue variable may not reuse a host name.
 */
export function loadRunEnv<Shape extends EnvShape = Record<never, never>>(
  shape: Shape = {} as Shape,
  source: NodeJS.ProcessEnv = process.env,
): RunEnv<Shape> {
  const clash = Object.keys(shape).filter((key) => key in HOST_ENV);
  if (clash.length > 0) throw new Error(`The catalogue's env redefines the host's ${clash.join(', ')}`);
  const schema = z.object({ ...HOST_ENV, ...shape }).superRefine((env, ctx) => {
    checkAuthPair(env as HostEnv, ctx);
    checkShares(env as HostEnv, ctx);
  });
  return parseEnv(schema, source, { quote: quoteSafely }) as RunEnv<Shape>;
}

/** Longer values are quoted in part: an oversized MCP_TRUST_PROXY would fill the terminal. */
const MAX_QUOTED_LENGTH = 200;

/**
 * What the error for a bad value shows of it. It must be safe to print: a URL's password (a
 * mistyped DATABASE_URL still holds one) is masked, and an oversized value shortened.
 */
export function quoteSafely(_name: string, value: string): string {
  let shown = value;
  try {
    const url = new URL(value);
    if (url.password) {
      url.password = '***';
      shown = url.href;
    }
  } catch {
    // Not a URL, but it may still hold `user:secret@` that failed to parse: then show none of it.
    if (/:\/\/.*@/s.test(value)) return '(an unparseable URL)';
  }
  return shown.length > MAX_QUOTED_LENGTH ? `${shown.slice(0, 40)}… (${value.length} characters)` : shown;
}
