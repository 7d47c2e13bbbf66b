/**
 * @module env
 * The only place that reads `process.env` in the demo model. Empty values count as unset.
 */
import { parseEnv } from '@mcp-workshop/shared';
import { z } from 'zod';
import { DEFAULT_CHUNK_DELAY_MS } from './server.js';

/** The port `pnpm start` and docker-compose give the demo model; the agent's DEMO_MODEL_URL defaults to it. */
export const DEFAULT_DEMO_MODEL_PORT = 3002;

const EnvSchema = z.object({
  DEMO_MODEL_HOST: z
    .string()
    .default('127.0.0.1')
    .describe('Interface to bind; 0.0.0.0 only inside a container.'),
  DEMO_MODEL_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_535)
    .default(DEFAULT_DEMO_MODEL_PORT)
    .describe('0 picks a free port.'),
  DEMO_MODEL_CHUNK_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000)
    .default(DEFAULT_CHUNK_DELAY_MS)
    .describe(
      'Pause between stream events, so streaming shows; 0 answers at once (`pnpm ask`, which prints only the whole answer).',
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type DemoModelEnv = z.infer<typeof EnvSchema>;

/** Every variable the demo model reads; `scripts/check-compose.mjs` holds docker-compose.yml to this list. */
export const DEMO_MODEL_ENV_KEYS = Object.keys(EnvSchema.shape) as ReadonlyArray<keyof DemoModelEnv>;

/** Parses an environment (default: `process.env`); throws an `EnvError` naming every bad variable. */
export function loadDemoModelEnv(source: NodeJS.ProcessEnv = process.env): DemoModelEnv {
  return parseEnv(EnvSchema, source);
}

export { EnvError } from '@mcp-workshop/shared';
