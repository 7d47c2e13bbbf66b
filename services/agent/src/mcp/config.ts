/**
 * @module mcp/config
 * Which MCP servers the agent connects to, read from the `mcpServers` file Claude Desktop uses
 * (VS Code's `servers` key works too). Parsing is pure; `loadServersConfig` is the one reader.
 */
import { readFileSync } from 'node:fs';
import { isPlainObject, WorkshopError } from '@mcp-workshop/shared';
import { z } from 'zod';

/** The server the agent talks to when there is no config file. */
export const DEFAULT_SERVER_NAME = 'workshop';

/**
 * Server names end up in tool names the model sees (`<server>__<tool>`) and in logs, so they stay
 * short and plain. 64 matches OpenAI's limit for a whole function name.
 */
const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** One MCP server to connect to. */
export type ServerSpec = HttpServerSpec | StdioServerSpec;

export interface HttpServerSpec {
  transport: 'http';
  name: string;
  /** The Streamable HTTP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  /** Sent with every request: a static `Authorization: Bearer …` for servers that use API keys. */
  headers?: Record<string, string>;
  /** OAuth sign-in with the client-credentials grant (the SDK discovers the rest from the server's 401). */
  oauth?: OAuthClientCredentials;
  /** Appended to the "could not reach" error, e.g. how to start the server. */
  hint?: string;
}

export interface StdioServerSpec {
  transport: 'stdio';
  name: string;
  command: string;
  args: string[];
  /** Added to the SDK's safe default environment (PATH, HOME, ...), not to the agent's whole environment. */
  env?: Record<string, string>;
  cwd?: string;
  hint?: string;
}

export interface OAuthClientCredentials {
  /** Absent only for a person's sign-in, where the SDK then registers a client (RFC 7591). */
  clientId?: string;
  /** With a secret: client credentials (a machine). Without: authorization code + PKCE (a person signs in). */
  clientSecret?: string;
  /** The authorization server the client is registered with: the secret goes there and nowhere else. */
  issuer: string;
  /** Scopes to ask for first; without it, what the server's challenge names. */
  scope?: string;
}

/** The config file is wrong: the message names the file, the entry and what to fix. */
export class ServersConfigError extends WorkshopError {
  constructor(
    message: string,
    readonly source: string,
    readonly entry?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const stringRecord = z.record(z.string(), z.string({ error: 'must be a string' }));

const HttpEntrySchema = z.object({
  type: z.literal('http').optional(),
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .describe('Streamable HTTP endpoint of the server.'),
  headers: stringRecord.optional().describe('Sent with every request, e.g. an Authorization header.'),
  oauth: z
    .strictObject({
      clientId: z.string().min(1, 'must not be empty').optional(),
      // Checked for presence only: an error must never quote a secret.
      clientSecret: z.string({ error: 'must be a string' }).min(1, 'must not be empty').optional(),
      issuer: z.url({ protocol: /^https?$/, error: 'must be the http(s) URL of the authorization server' }),
      scope: z.string().optional(),
    })
    // A secret belongs to a registered machine client; without its id it would go nowhere useful.
    .refine((oauth) => oauth.clientSecret === undefined || oauth.clientId !== undefined, {
      path: ['clientId'],
      message: 'is required with clientSecret',
    })
    .optional()
    .describe(
      'OAuth sign-in: { clientId?, clientSecret?, issuer, scope? }. With a secret, a machine signs in; ' +
        'without, a person does, and without a clientId the agent registers itself (RFC 7591).',
    ),
});

const StdioEntrySchema = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'must not be empty').describe('Executable to start, e.g. "node" or "npx".'),
  args: z
    .array(z.string({ error: 'must be a string' }))
    .default([])
    .describe('Command-line arguments.'),
  env: stringRecord.optional().describe('Extra environment variables for the server process.'),
  cwd: z.string().min(1).optional().describe('Working directory of the server process.'),
});

const KNOWN_TYPES = ['http', 'stdio'];

/**
 * Parses a servers config that is already JSON-decoded. `sourceLabel` (usually the file path)
 * appears in every error message.
 */
export function parseServersConfig(json: unknown, sourceLabel: string): ServerSpec[] {
  const problem = (message: string, entry?: string) =>
    new ServersConfigError(`${sourceLabel}: ${message}`, sourceLabel, entry);
  if (!isPlainObject(json))
    throw problem('expected a JSON object like { "mcpServers": { "<name>": { ... } } }');
  if ('mcpServers' in json && 'servers' in json) {
    throw problem('has both "mcpServers" and "servers"; keep one of them');
  }
  const key = 'mcpServers' in json ? 'mcpServers' : 'servers' in json ? 'servers' : undefined;
  if (key === undefined) throw problem('has no "mcpServers" object (VS Code files call it "servers")');
  const entries = json[key];
  if (!isPlainObject(entries)) throw problem(`"${key}" must be an object that maps server names to settings`);
  const names = Object.keys(entries);
  if (names.length === 0) throw problem(`"${key}" lists no servers`);

  return names.map((name) => {
    const where = `server "${name}"`;
    if (!SERVER_NAME_PATTERN.test(name)) {
      throw problem(
        `${where}: rename it using only letters, digits, "-" and "_" (at most 64 characters)`,
        name,
      );
    }
    const settings = entries[name];
    if (!isPlainObject(settings)) throw problem(`${where}: expected an object with "command" or "url"`, name);
    const type = settings.type;
    if (type !== undefined && !KNOWN_TYPES.includes(String(type))) {
      throw problem(
        `${where}: "type" ${JSON.stringify(type)} is not supported; use "http" (Streamable HTTP) or "stdio"`,
        name,
      );
    }
    const hasUrl = 'url' in settings;
    const hasCommand = 'command' in settings;
    if (hasUrl && hasCommand) throw problem(`${where}: has both "url" and "command"; keep one`, name);
    if (!hasUrl && !hasCommand) {
      throw problem(
        `${where}: needs "command" (a local server over stdio) or "url" (a server over HTTP)`,
        name,
      );
    }
    if (type === 'http' && !hasUrl) throw problem(`${where}: "type": "http" needs a "url"`, name);
    if (type === 'stdio' && !hasCommand) throw problem(`${where}: "type": "stdio" needs a "command"`, name);

    if (hasUrl) {
      const parsed = HttpEntrySchema.safeParse(settings);
      if (!parsed.success) throw problem(`${where}: ${describeIssues(parsed.error)}`, name);
      const data = parsed.data;
      const hasAuthHeader = Object.keys(data.headers ?? {}).some(
        (header) => header.toLowerCase() === 'authorization',
      );
      if (data.oauth && hasAuthHeader) {
        throw problem(`${where}: has both "oauth" and an Authorization header; keep one`, name);
      }
      return {
        transport: 'http',
        name,
        url: data.url,
        ...(data.headers && { headers: data.headers }),
        ...(data.oauth && { oauth: data.oauth }),
      };
    }
    const parsed = StdioEntrySchema.safeParse(settings);
    if (!parsed.success) throw problem(`${where}: ${describeIssues(parsed.error)}`, name);
    const data = parsed.data;
    return {
      transport: 'stdio',
      name,
      command: data.command,
      args: data.args,
      ...(data.env && { env: data.env }),
      ...(data.cwd && { cwd: data.cwd }),
    };
  });
}

/** Reads and parses a servers config file. The only function here that does I/O. */
export function loadServersConfig(path: string): ServerSpec[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : String(error);
    throw new ServersConfigError(`Cannot read the MCP servers config ${path}: ${reason}`, path, undefined, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ServersConfigError(
      `${path}: not valid JSON (${(error as Error).message}). Comments and trailing commas are not allowed.`,
      path,
      undefined,
      { cause: error },
    );
  }
  return parseServersConfig(json, path);
}

/** The servers used without a config file: the workshop server at `url`, signed in when `oauth` is given. */
export function defaultServerSpecs(url: string, oauth?: OAuthClientCredentials): ServerSpec[] {
  return [
    {
      transport: 'http',
      name: DEFAULT_SERVER_NAME,
      url,
      hint: 'Start it with "pnpm start".',
      ...(oauth && { oauth }),
    },
  ];
}

/** What a server spec points at, for logs and errors: the URL, or the command line. */
export function describeTarget(spec: ServerSpec): string {
  if (spec.transport === 'http') return spec.url;
  return [spec.command, ...spec.args]
    .map((part) => (/[\s"']/.test(part) ? JSON.stringify(part) : part))
    .join(' ');
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `"${issue.path.join('.')}" ${issue.message}` : issue.message))
    .join('; ');
}
