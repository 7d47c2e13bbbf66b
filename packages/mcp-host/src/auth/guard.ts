/**
 * @module auth/guard
 * The resource-server side of MCP authorization, as express middleware:
 * - `authenticate` needs a valid Bearer token on `/mcp` and `/tools`, and answers 401 with a
 *   `WWW-Authenticate` challenge that points at the protected-resource metadata (RFC 9728), or
 *   503 when the issuer's keys can't be fetched (never a 500, and never let through); a request
 *   that fails the check spends its address's failure budget, and past it gets 429 instead of 401;
 * - `requireScopes` answers 403 `insufficient_scope`, naming every scope the request needs, so a
 *   client can ask for a token with more and retry (step-up).
 * Tokens are never logged or echoed, not even in part.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Request, RequestHandler, Response } from 'express';
import type { FailureBudget } from '../http/rate-limits.js';
import type { Logger } from '../logger.js';
import { missingScopes } from './scopes.js';
import { InvalidTokenError, KeysUnavailableError, type VerifyToken } from './token-verifier.js';

/** How long a client should wait when the issuer's keys are unreachable. */
const KEYS_RETRY_AFTER_SECONDS = 30;
/** Far longer than real access tokens (1–3 KB); a bigger one is junk and is refused without parsing. */
const MAX_TOKEN_LENGTH = 8 * 1024;

export interface GuardSettings {
  verify: VerifyToken;
  /** Absolute URL of this server's protected-resource metadata document. */
  resourceMetadataUrl: string;
  /** Scopes this resource offers, named in a 401 so a client knows what to ask for. */
  scopesSupported: readonly string[];
  logger: Logger;
  /**
   * The per-address budget for failed sign-ins (rate-limits.ts), spent only once a token is
   * missing or fails verification, so a valid token is never refused for its address's failures.
   */
  failures?: FailureBudget | undefined;
}

/** A quoted-string for an auth-param (RFC 9110 §5.6.4): backslash and quote escaped, controls dropped. */
function quoted(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  return `"${value.replace(/[\u0000-\u001f\u007f]/g, '').replace(/["\\]/g, '\\$&')}"`;
}

export interface Challenge {
  error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request';
  description?: string;
  scopes: readonly string[];
  resourceMetadataUrl: string;
}

/** `Bearer error="…", error_description="…", scope="…", resource_metadata="…"` (RFC 6750 §3, RFC 9728 §5.1). */
export function bearerChallenge({ error, description, scopes, resourceMetadataUrl }: Challenge): string {
  const params: string[] = [];
  if (error) params.push(`error=${quoted(error)}`);
  if (error && description) params.push(`error_description=${quoted(description)}`);
  if (scopes.length > 0) params.push(`scope=${quoted(scopes.join(' '))}`);
  params.push(`resource_metadata=${quoted(resourceMetadataUrl)}`);
  return `Bearer ${params.join(', ')}`;
}

interface RefusalBody {
  error: string;
  error_description: string;
}

function refuse(res: Response, status: number, challenge: Challenge, body: RefusalBody) {
  res.setHeader('WWW-Authenticate', bearerChallenge(challenge));
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json(body);
}

/** The token of an `Authorization: Bearer <token>` header; `null` when there is a header but it is not one. */
function bearerToken(req: Request): string | null | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1] && match[1].length <= MAX_TOKEN_LENGTH ? match[1] : null;
}

export function authenticate(settings: GuardSettings): RequestHandler {
  const { verify, resourceMetadataUrl, scopesSupported, logger, failures } = settings;
  /** 401 with its challenge, or 429 once this failure puts the address over its budget. */
  const refuseToken = async (req: Request, res: Response, challenge: Challenge, body: RefusalBody) => {
    const retryAfter = await failures?.spend(req);
    if (retryAfter === undefined) return refuse(res, 401, challenge, body);
    res.setHeader('Retry-After', String(retryAfter));
    res.status(429).json({
      error: 'too_many_requests',
      error_description: `Too many requests without a valid access token from this address: at most ${failures?.perMinute} a minute. A valid token is still served; get one and retry, or wait ${retryAfter} s.`,
    });
  };
  return async (req, res, next) => {
    // CORS preflights carry no credentials by design; the endpoints answer them on their own terms.
    if (req.method === 'OPTIONS') return next();
    const token = bearerToken(req);
    if (token === undefined) {
      await refuseToken(
        req,
        res,
        { scopes: scopesSupported, resourceMetadataUrl },
        {
          // No error code in the challenge (RFC 6750 §3.1: none was sent); the body still says what to do.
          error: 'unauthorized',
          error_description: `This server needs an OAuth access token: send "Authorization: Bearer <token>". Where to get one: ${resourceMetadataUrl}`,
        },
      );
      return;
    }
    if (token === null) {
      const description = 'The Authorization header is not "Bearer <token>" with a well-formed token.';
      await refuseToken(
        req,
        res,
        { error: 'invalid_token', description, scopes: scopesSupported, resourceMetadataUrl },
        { error: 'invalid_token', error_description: description },
      );
      return;
    }
    let auth: AuthInfo;
    try {
      // Verified before any budget is looked at: the keys are cached, so a check costs a signature
      // verification, and a valid token must be served whatever else its address has sent.
      auth = await verify(token);
    } catch (error) {
      if (error instanceof KeysUnavailableError) {
        logger.warn({ reason: error.message }, 'cannot verify tokens: the issuer keys are unavailable');
        res.setHeader('Retry-After', String(KEYS_RETRY_AFTER_SECONDS));
        res.status(503).json({
          error: 'temporarily_unavailable',
          error_description: `${error.message} Tokens cannot be checked right now; retry in ${KEYS_RETRY_AFTER_SECONDS} s.`,
        });
        return;
      }
      if (!(error instanceof InvalidTokenError)) return next(error);
      // Debug, not info: anyone can send junk tokens, and a flood of them must not flood the log
      // (the per-address failure budget answers the flood itself).
      logger.debug({ reason: error.message }, 'refused an access token');
      await refuseToken(
        req,
        res,
        { error: 'invalid_token', description: error.message, scopes: scopesSupported, resourceMetadataUrl },
        { error: 'invalid_token', error_description: error.message },
      );
      return;
    }
    req.auth = auth;
    next();
  };
}

/**
 * Answers 403 `insufficient_scope`, naming every scope the request needs, so a client can ask for
 * a token with more and retry (step-up).
 */
export function refuseForScope(
  res: Response,
  settings: Pick<GuardSettings, 'resourceMetadataUrl'>,
  needed: readonly string[],
  missing: readonly string[],
): void {
  const description = `This request needs the scope ${needed.join(' ')}; the token lacks ${missing.join(' ')}. Get a token with ${needed.join(' ')} and retry.`;
  refuse(
    res,
    403,
    {
      error: 'insufficient_scope',
      description,
      scopes: needed,
      resourceMetadataUrl: settings.resourceMetadataUrl,
    },
    { error: 'insufficient_scope', error_description: description },
  );
}

/** 403 unless the request's token carries every scope `scopesFor` says the request needs. */
export function requireScopes(
  settings: Pick<GuardSettings, 'resourceMetadataUrl' | 'logger'>,
  scopesFor: (req: Request) => readonly string[],
): RequestHandler {
  return (req, res, next) => {
    const needed = scopesFor(req);
    const missing = missingScopes(needed, req.auth?.scopes ?? []);
    if (missing.length === 0) return next();
    settings.logger.info({ clientId: req.auth?.clientId, missing }, 'refused a request for scope');
    refuseForScope(res, settings, needed, missing);
  };
}
