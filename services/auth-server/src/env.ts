/**
 * @module env
 * The only place that reads `process.env` in the development authorization server. Empty values
 * count as unset. The secrets here have development defaults, published in the README on purpose:
 * on loopback this server only shows sign-in on one machine. Bound anywhere else (AUTH_HOST=0.0.0.0
 * in a container), other machines can reach it, so it refuses to start until every secret and
 * password is one of your own (`exposureProblems`).
 */
import { isIPv4 } from 'node:net';
import { commaList, EnvError, parseEnv } from '@mcp-workshop/shared';
import { z } from 'zod';

export const DEFAULT_AUTH_PORT = 3003;

/**
 * The published development defaults. They are public (README, tests, scripts), so off loopback
 * each one counts as no secret at all, under any of the settings.
 */
export const PUBLISHED_DEFAULTS = {
  AUTH_AGENT_CLIENT_SECRET: 'workshop-agent-secret',
  AUTH_READER_CLIENT_SECRET: 'workshop-reader-secret',
  AUTH_DEMO_PASSWORD: 'demo',
  AUTH_GUEST_PASSWORD: 'guest',
} as const;

/** Off loopback: client secrets are machine-made, so ask for a length that resists guessing. */
export const MIN_EXPOSED_SECRET_LENGTH = 16;
/** Off loopback: passwords are typed by people, and the login limit slows guessing further. */
export const MIN_EXPOSED_PASSWORD_LENGTH = 12;

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
  AUTH_AGENT_CLIENT_SECRET: z.string().min(8).default(PUBLISHED_DEFAULTS.AUTH_AGENT_CLIENT_SECRET),
  AUTH_READER_CLIENT_SECRET: z.string().min(8).default(PUBLISHED_DEFAULTS.AUTH_READER_CLIENT_SECRET),
  AUTH_DEMO_PASSWORD: z.string().min(1).default(PUBLISHED_DEFAULTS.AUTH_DEMO_PASSWORD),
  AUTH_GUEST_PASSWORD: z
    .string()
    .min(1)
    .default(PUBLISHED_DEFAULTS.AUTH_GUEST_PASSWORD)
    .describe('The password of the second person, `guest`.'),
  AUTH_LOGIN_ATTEMPTS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(10)
    .describe('Failed sign-ins (and failed client authentications) per client address per minute.'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type AuthServerEnv = z.infer<typeof EnvSchema>;

/** Every variable it reads; `scripts/check-compose.mjs` holds docker-compose.yml to this list. */
export const AUTH_SERVER_ENV_KEYS = Object.keys(EnvSchema.shape) as ReadonlyArray<keyof AuthServerEnv>;

/** The settings that must be your own once AUTH_HOST is not loopback. */
export const AUTH_SERVER_SECRET_KEYS = Object.keys(PUBLISHED_DEFAULTS) as ReadonlyArray<
  keyof typeof PUBLISHED_DEFAULTS
>;

/** 127.0.0.0/8, ::1 and localhost: only this machine can connect. Anything else counts as exposed. */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase();
  if (name === 'localhost' || name === '::1') return true;
  return isIPv4(name) && name.startsWith('127.');
}

const PUBLISHED_VALUES = new Set<string>(Object.values(PUBLISHED_DEFAULTS));

/** What to do about each secret that is not fit for a server others can reach; never its value. */
export function exposureProblems(env: AuthServerEnv): string[] {
  if (isLoopbackHost(env.AUTH_HOST)) return [];
  const problems: string[] = [];
  for (const key of AUTH_SERVER_SECRET_KEYS) {
    const password = key.endsWith('_PASSWORD');
    const what = password ? 'password' : 'random secret';
    const min = password ? MIN_EXPOSED_PASSWORD_LENGTH : MIN_EXPOSED_SECRET_LENGTH;
    const value = env[key];
    if (PUBLISHED_VALUES.has(value)) {
      problems.push(
        `${key} is a published default: set ${key} to a ${what} of your own (at least ${min} characters).`,
      );
    } else if (value.length < min) {
      problems.push(
        `${key} is shorter than ${min} characters: set ${key} to a longer ${what} (at least ${min}).`,
      );
    }
  }
  return problems;
}

export function loadAuthServerEnv(source: NodeJS.ProcessEnv = process.env): AuthServerEnv {
  const env = parseEnv(EnvSchema, source);
  const problems = exposureProblems(env);
  if (problems.length > 0) {
    throw new EnvError(
      [
        `AUTH_HOST=${env.AUTH_HOST} lets other machines reach this server, and its secrets are not fit for that:`,
        ...problems.map((problem) => `  ${problem}`),
        'Generate secrets with e.g. `openssl rand -base64 24` (in compose: put them in .env, see .env.example),',
        'or bind to loopback (AUTH_HOST=127.0.0.1), where the published development defaults are allowed.',
      ].join('\n'),
    );
  }
  return env;
}

export { EnvError };
