/**
 * @module env
 * The only place that reads `process.env`. Every setting is validated once, at start-up, and a
 * bad value stops the server with a message that says which variable to fix and how.
 * Empty values count as unset, so `PORT=` in a `.env` file means "use the default".
 */
import { fileURLToPath } from 'node:url';
import { parseEnv } from '@mcp-workshop/shared';
import { z } from 'zod';
import { DEFAULT_FORECAST_URL, DEFAULT_GEOCODING_URL } from './weather/open-meteo.js';

/** Where the task database lives unless DATA_DIR says otherwise: next to this package, not the caller's cwd. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../data', import.meta.url));

const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

const EnvSchema = z.object({
  HOST: z.string().default('127.0.0.1').describe('Interface to bind; 0.0.0.0 only inside a container.'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  MCP_STATELESS: z.stringbool().default(false),
  MCP_SESSION_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1800),
  MCP_MAX_SESSIONS: z.coerce.number().int().min(1).max(100_000).default(100),
  MCP_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(50),
  MCP_CONFORMANCE: z.stringbool().default(false),
  MCP_ALLOWED_HOSTS: commaList.optional(),
  MCP_ALLOWED_ORIGINS: commaList.optional(),
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
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
  MCP_AUTH_ISSUER: z
    .url()
    .optional()
    .describe('OAuth issuer; setting it turns sign-in on for /mcp and /tools.'),
  MCP_RESOURCE_URL: z
    .url()
    .refine((url) => !url.includes('#'), 'A resource URL has no #fragment (RFC 8707).')
    .optional()
    .describe("This server's canonical URL: the resource tokens must be issued for."),
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

export type ServerEnv = z.infer<typeof EnvSchema>;

/** Every variable the server reads; `scripts/check-compose.mjs` holds docker-compose.yml to this list. */
export const SERVER_ENV_KEYS = Object.keys(EnvSchema.shape) as ReadonlyArray<keyof ServerEnv>;

/** Parses an environment (default: `process.env`); throws an `EnvError` naming every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): ServerEnv {
  return parseEnv(EnvSchema.superRefine(checkAuthPair), source);
}

export { EnvError } from '@mcp-workshop/shared';
