/**
 * @module env
 * The only place the launcher reads `process.env`: just what decides which services to start.
 * Everything else in the environment passes through untouched to the services and the agent,
 * which validate their own settings.
 */
import { parseEnv } from '@mcp-workshop/shared';
import { z } from 'zod';

const optionalText = z.string().optional();

const EnvSchema = z.object({
  MCP_SERVER_URL: z.url().optional(),
  MCP_SERVERS_CONFIG: optionalText,
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: z.url().optional(),
  DEMO_MODEL_URL: z.url().optional(),
  /** The server's own HOST and PORT: where a server the launcher starts listens. */
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /** The demo model's own DEMO_MODEL_HOST and DEMO_MODEL_PORT, read the same way. */
  DEMO_MODEL_HOST: z.string().default('127.0.0.1'),
  DEMO_MODEL_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  /** Only whether it is set: the demo model validates it itself. */
  DEMO_MODEL_CHUNK_DELAY_MS: optionalText,
  /** Only named in a note; the server reads it itself. */
  DATA_DIR: optionalText,
});

export type LauncherEnv = z.infer<typeof EnvSchema>;

export function loadLauncherEnv(source: NodeJS.ProcessEnv = process.env): LauncherEnv {
  return parseEnv(EnvSchema, source);
}

export { EnvError } from '@mcp-workshop/shared';
