/**
 * @module test-support/browser
 * A browser just big enough for the sign-in pages, on node:http so a test can pick the address it
 * connects from (`localAddress`: any of 127.0.0.0/8 reaches a server on 127.0.0.1), which is what
 * a per-address limit needs to be tested with. Keeps cookies, follows redirects on its own server.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, request } from 'node:http';

/** No answer within this long is a failed test, not a hang. */
const REQUEST_TIMEOUT_MS = 5_000;
/** Redirects between the authorization endpoint and the sign-in page: a few, never a loop. */
const MAX_HOPS = 10;

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The local address to connect from, e.g. 127.0.0.2. */
  localAddress?: string;
}

export function httpRequest(url: string, init: RequestInit = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        localAddress: init.localAddress,
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(init.body);
  });
}

export class Browser {
  readonly #cookies = new Map<string, string>();

  constructor(
    readonly origin: string,
    readonly localAddress?: string,
  ) {}

  async go(url: string, init: RequestInit = {}): Promise<Answer> {
    const cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await httpRequest(new URL(url, this.origin).href, {
      ...init,
      localAddress: this.localAddress,
      headers: { ...init.headers, ...(cookie ? { cookie } : {}) },
    });
    for (const line of answer.headers['set-cookie'] ?? []) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      this.#cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return answer;
  }

  /** Follows redirects on this server; stops at (and returns) the first one that leaves it. */
  async follow(answer: Answer): Promise<Answer> {
    let current = answer;
    for (let hop = 0; hop < MAX_HOPS && current.status >= 300 && current.status < 400; hop++) {
      const location = new URL(String(current.headers.location ?? ''), this.origin);
      if (location.origin !== this.origin) return current;
      current = await this.go(location.href);
    }
    return current;
  }

  post(url: string, form: Record<string, string>): Promise<Answer> {
    return this.go(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }

  /** Starts authorization code + PKCE for `workshop-chat` and returns the login form's action. */
  async openSignIn(resource: string): Promise<string> {
    const url = new URL('/auth', this.origin);
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const params = {
      client_id: 'workshop-chat',
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1:5002/callback',
      scope: 'openid tasks:read',
      resource,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    const page = await this.follow(await this.go(url.href));
    const action = /action="(\/interaction\/[^"]+\/login)"/.exec(page.body)?.[1];
    if (!action) throw new Error(`no sign-in form: HTTP ${page.status} ${page.body.slice(0, 200)}`);
    return action;
  }
}
