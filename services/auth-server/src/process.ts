/**
 * @module process
 * Runs this authorization server as a child process, the way other packages' tests and scripts
 * use it: they talk to it over HTTP only and import nothing else of it. Exported as
 * `@mcp-workshop/auth-server/process`; the package must be built first (`dist/index.js`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort, stopChild } from '@mcp-workshop/shared/processes';

/** The built entry, next to this file in `dist/`. */
export const AUTH_SERVER_ENTRY = fileURLToPath(new URL('./index.js', import.meta.url));
/** Its pre-registered confidential clients, with their development secrets (see the README). */
export const AGENT_CLIENT = { id: 'workshop-agent', secret: 'workshop-agent-secret' } as const;
export const READER_CLIENT = { id: 'workshop-reader', secret: 'workshop-reader-secret' } as const;
/** The people who may sign in, with their development passwords; each user name is their tokens' `sub`. */
export const DEMO_PERSON = { username: 'demo', password: 'demo' } as const;
export const GUEST_PERSON = { username: 'guest', password: 'guest' } as const;
const DEFAULT_PASSWORDS: Record<string, string> = {
  [DEMO_PERSON.username]: DEMO_PERSON.password,
  [GUEST_PERSON.username]: GUEST_PERSON.password,
};

const READY_TIMEOUT_MS = 15_000;

export interface AuthServerProcess {
  issuer: string;
  tokenEndpoint: string;
  jwksUri: string;
  /** A client-credentials access token for `resource`, with `scope` when given. */
  token(client: { id: string; secret: string }, resource: string, scope?: string): Promise<string>;
  close(): Promise<void>;
}

export interface AuthServerProcessOptions {
  /** MCP servers tokens may be issued for. */
  resources: readonly string[];
  /** Extra environment, e.g. AUTH_ACCESS_TOKEN_TTL_SECONDS. */
  env?: Record<string, string>;
  /** The port to try first (default: a free one); if it is taken, later attempts take free ones. */
  port?: number;
}

/** How many ports to try: another process may take the free one before the child binds it. */
const START_ATTEMPTS = 3;
/** The levels at which the entry's "listening" line, our readiness signal, is still written. */
const CHATTY_LEVELS = new Set(['warn', 'info', 'debug', 'trace']);

/**
 * Starts the built server on a free loopback port and resolves once the child itself says it is
 * listening. Polling `/health` alone is not enough: when another test's server takes the port
 * first, that server answers and ours exits with EADDRINUSE, so a start on a lost port is retried.
 */
export async function startAuthServerProcess(options: AuthServerProcessOptions): Promise<AuthServerProcess> {
  if (!existsSync(AUTH_SERVER_ENTRY)) {
    throw new Error(
      `${AUTH_SERVER_ENTRY} is missing. Build it: pnpm --filter @mcp-workshop/auth-server build`,
    );
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOn(attempt === 1 && options.port ? options.port : await freePort(), options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= START_ATTEMPTS) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOn(port: number, options: AuthServerProcessOptions): Promise<AuthServerProcess> {
  const issuer = `http://127.0.0.1:${port}`;
  const level = options.env?.LOG_LEVEL;
  const child = spawn(process.execPath, [AUTH_SERVER_ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      AUTH_HOST: '127.0.0.1',
      AUTH_PORT: String(port),
      AUTH_ISSUER: issuer,
      MCP_RESOURCE_URL: options.resources.join(','),
      ...options.env,
      LOG_LEVEL: level && CHATTY_LEVELS.has(level) ? level : 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  try {
    await waitForListening(issuer, child, () => stderr);
    const metadata = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()) as {
      token_endpoint: string;
      jwks_uri: string;
    };
    return {
      issuer,
      tokenEndpoint: metadata.token_endpoint,
      jwksUri: metadata.jwks_uri,
      token: (client, resource, scope) => clientCredentials(metadata.token_endpoint, client, resource, scope),
      close: () => stopChild(child),
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

async function clientCredentials(
  tokenEndpoint: string,
  client: { id: string; secret: string },
  resource: string,
  scope?: string,
): Promise<string> {
  const body = new URLSearchParams({ grant_type: 'client_credentials', resource });
  if (scope !== undefined) body.set('scope', scope);
  const response = await fetch(tokenEndpoint, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}` },
    body,
  });
  const answer = (await response.json()) as {
    access_token?: string;
    error?: string;
    error_description?: string;
  };
  if (!response.ok || !answer.access_token) {
    throw new Error(
      `token request failed: HTTP ${response.status} ${answer.error}: ${answer.error_description}`,
    );
  }
  return answer.access_token;
}

/** Resolves once the child logs that it listens on `issuer`; rejects if it exits first. */
async function waitForListening(issuer: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (announced(stderr(), issuer)) return;
    if (child.exitCode !== null) {
      const message = `auth server exited with ${child.exitCode}: ${stderr()}`;
      throw stderr().includes('EADDRINUSE') ? new PortTakenError(message) : new Error(message);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`auth server did not say it was listening within ${READY_TIMEOUT_MS} ms: ${stderr()}`);
}

/** Whether one of the entry's JSON log lines announces `issuer` (written only once it listens). */
function announced(log: string, issuer: string): boolean {
  return log.split('\n').some((line) => {
    try {
      return (JSON.parse(line) as { issuer?: unknown }).issuer === issuer;
    } catch {
      return false;
    }
  });
}

/**
 * Plays the person at the browser for a test: opens `authorizationUrl`, signs in as `username`
 * (the demo user unless told; `guest` is the second person), allows what is asked, and returns the
 * URL the authorization server finally redirects to (the client's callback, with `code` and
 * `state`, or with `error`). `password` defaults to that user's development password. Cookies are
 * kept as a browser would.
 */
export async function signInAsDemoUser(
  authorizationUrl: string,
  password?: string,
  username: string = DEMO_PERSON.username,
): Promise<string> {
  const secret = password ?? DEFAULT_PASSWORDS[username] ?? '';
  const origin = new URL(authorizationUrl).origin;
  const cookies = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
  const post = (action: string, form: Record<string, string>) =>
    go(new URL(action, origin).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
  let response = await go(authorizationUrl);
  for (let step = 0; step < 20; step++) {
    if (response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get('location') ?? '', origin);
      if (location.origin !== origin) return location.href;
      response = await go(location.href);
      continue;
    }
    const html = await response.text();
    const action = (name: string) => new RegExp(`action="(/interaction/[^"]+/${name})"`).exec(html)?.[1];
    const login = action('login');
    const confirm = action('confirm');
    if (login) {
      response = await post(login, { username, password: secret });
      // The form again, with an error: posting it once more would only spend the login limit.
      if (response.status === 401) throw new Error(`sign-in refused: wrong password for ${username}`);
    } else if (confirm) response = await post(confirm, {});
    else throw new Error(`sign-in stopped at HTTP ${response.status}: ${html.slice(0, 200)}`);
  }
  throw new Error('sign-in did not finish within 20 steps');
}
