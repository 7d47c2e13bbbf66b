/**
 * @module env
 * The only place that reads `process.env` in the development authorization server. Empty values
 * count as unset. The secrets here are development defaults, published in the README on purpose:
 * this server exists so the workshop can show sign-in on one machine, never to protect anything.
 */
import { parseEnv } from '@mcp-workshop/shared';
import { z } from 'zod';

export const DEFAULT_AUTH_PORT = 3003;

const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

const EnvSchema = z.object({
  AUTH_HOST: z.string().default('127.0.0.1').describe('Interface to bind; 0.0.0.0 only inside a container.'),
  AUTH_PORT: z.coerce.number().int().min(0).max(65_535).default(DEFAULT_AUTH_PORT),
  AUTH_ISSUER: z
    .url()
    .refine(
      (url) => !url.endsWith('/') && !url.includes('?') && !url.includes('#'),
      'no trailing slash, query or fragment',
    )
    .optional()
    .describe('The URL clients reach this server at; default http://127.0.0.1:<AUTH_PORT>.'),
  MCP_RESOURCE_URL: commaList
    .pipe(z.array(z.url()).min(1))
    .default(['http://127.0.0.1:3000/mcp'])
    .describe('The MCP servers (resources) tokens may be issued for, comma-separated.'),
  AUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(600),
  AUTH_AGENT_CLIENT_SECRET: z.string().min(8).default('workshop-agent-secret'),
  AUTH_READER_CLIENT_SECRET: z.string().min(8).default('workshop-reader-secret'),
  AUTH_DEMO_PASSWORD: z.string().min(1).default('demo'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type AuthServerEnv = z.infer<typeof EnvSchema>;

/** Every variable it reads; `scripts/check-compose.mjs` holds docker-compose.yml to this list. */
export const AUTH_SERVER_ENV_KEYS = Object.keys(EnvSchema.shape) as ReadonlyArray<keyof AuthServerEnv>;

export function loadAuthServerEnv(source: NodeJS.ProcessEnv = process.env): AuthServerEnv {
  return parseEnv(EnvSchema, source);
}

export { EnvError } from '@mcp-workshop/shared';
