/**
 * @module auth/token-verifier
 * Verifies RFC 9068 JWT access tokens with `jose`: the signature against the issuer's JWKS
 * (cached; fetched again when a token names an unknown `kid`, at most once per cooldown), then
 * `typ`, `iss`, `aud` (must contain this server's URL, RFC 8707), `exp`, `nbf` and `iat` with a
 * small clock tolerance. Only asymmetric algorithms are accepted, so `alg: none` and an HS256
 * token "signed" with the public key are refused. The subject and client id name whose data a
 * request touches, so they must be non-empty (RFC 9068 §2.2), at most MAX_IDENTITY_LENGTH
 * characters, free of control characters (C0 and C1) and well-formed Unicode (no lone surrogate):
 * an identity is never cut or blank, and never turns into another on its way to a database. Errors never
 * quote the token.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { JWTPayload } from 'jose';
import { MAX_IDENTITY_LENGTH } from './caller.js';

type Jose = typeof import('jose');
/** `jose`, loaded with the first token: a server without sign-in never loads it, one with it starts faster. */
let jose: Promise<Jose> | undefined;
function loadJose(): Promise<Jose> {
  jose ??= import('jose');
  return jose;
}

/** Asymmetric JWS algorithms only (RFC 8725 §3.1): never `none`, never an HMAC. */
const ACCEPTED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];
/** Clocks drift; a minute either side is the usual allowance and still keeps tokens short-lived. */
export const CLOCK_TOLERANCE_SECONDS = 60;
/** The least time between two JWKS fetches caused by unknown `kid`s: a flood of forged kids can't hammer the issuer. */
const JWKS_COOLDOWN_MS = 30_000;
const JWKS_TIMEOUT_MS = 5_000;

/** The token was refused: the client should get a new one (HTTP 401). */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/** The issuer's keys could not be fetched: nobody can be verified right now (HTTP 503). */
export class KeysUnavailableError extends Error {
  override name = 'KeysUnavailableError';
}

export interface TokenVerifierOptions {
  issuer: string;
  jwksUri: URL;
  /** This server's canonical URL (`MCP_RESOURCE_URL`): tokens must name it in `aud`. */
  resource: string;
  /** For tests: the time tokens are checked against. */
  now?: () => Date;
}

export type VerifyToken = (token: string) => Promise<AuthInfo>;

export function createTokenVerifier(options: TokenVerifierOptions): VerifyToken {
  // One key set per verifier, made with the first token: it caches the issuer's keys between tokens.
  let keys: ReturnType<Jose['createRemoteJWKSet']> | undefined;
  const now = options.now ?? (() => new Date());
  return async (token) => {
    const { createRemoteJWKSet, errors, jwtVerify } = await loadJose();
    keys ??= createRemoteJWKSet(options.jwksUri, {
      cooldownDuration: JWKS_COOLDOWN_MS,
      timeoutDuration: JWKS_TIMEOUT_MS,
    });
    const currentDate = now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        algorithms: ACCEPTED_ALGORITHMS,
        issuer: options.issuer,
        audience: options.resource,
        typ: 'at+jwt',
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate,
      }));
    } catch (error) {
      throw translate(error, errors);
    }
    // jose checks `iat` only for its type; a token from the future means a broken or forged issuer clock.
    if (
      typeof payload.iat === 'number' &&
      payload.iat > currentDate.getTime() / 1000 + CLOCK_TOLERANCE_SECONDS
    ) {
      throw new InvalidTokenError('The token was issued in the future (iat).');
    }
    const clientId = stringClaim(payload, 'client_id') ?? stringClaim(payload, 'azp') ?? '';
    const identityProblem =
      problemWithIdentity('sub', payload.sub, true) ?? problemWithIdentity('client_id', clientId, false);
    if (identityProblem) throw new InvalidTokenError(identityProblem);
    return {
      token,
      clientId,
      scopes: scopesOf(payload),
      expiresAt: payload.exp,
      resource: new URL(options.resource),
      extra: { sub: payload.sub, iss: payload.iss },
    };
  };
}

/** C0, DEL and C1 (U+0080 to U+009F): invisible in a log, and read as terminal commands by some. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
/** A surrogate not in a pair: with the `u` flag a pair is one code point, so only a lone one matches (`!isWellFormed()`, ES2024). */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Why a subject or client id cannot name an owner, or undefined when it can. An empty subject would
 * leave the session and the data to disagree on who is asking; a longer one would have to be cut.
 */
function problemWithIdentity(claim: string, value: unknown, required: boolean): string | undefined {
  if (value === undefined || value === '') {
    return required ? `The token's ${claim} claim is empty: it must name who the token is for.` : undefined;
  }
  if (typeof value !== 'string') return `The token's ${claim} claim is not a string.`;
  if (value.length > MAX_IDENTITY_LENGTH) {
    return `The token's ${claim} claim is ${value.length} characters long; this server accepts at most ${MAX_IDENTITY_LENGTH}.`;
  }
  if (CONTROL_CHARACTERS.test(value)) return `The token's ${claim} claim contains control characters.`;
  // A lone surrogate has no UTF-8 form: a database driver writes it as U+FFFD, so two subjects that
  // differ only there would be one owner in Postgres. JSON carries them (`"\ud800"`); owners never do.
  if (LONE_SURROGATE.test(value))
    return `The token's ${claim} claim is not well-formed Unicode (a lone surrogate).`;
  return undefined;
}

function stringClaim(payload: JWTPayload, name: string): string | undefined {
  const value = payload[name];
  return typeof value === 'string' ? value : undefined;
}

/** RFC 9068 `scope` (space-separated); some issuers send `scp` as a list instead. */
function scopesOf(payload: JWTPayload): string[] {
  const { scope, scp } = payload;
  if (typeof scope === 'string') return scope.split(' ').filter(Boolean);
  if (Array.isArray(scp)) return scp.filter((item): item is string => typeof item === 'string');
  return [];
}

/** jose's errors, in words a client can act on and that never contain the token. */
function translate(error: unknown, errors: Jose['errors']): Error {
  if (error instanceof errors.JWKSTimeout)
    return new KeysUnavailableError("The issuer's keys (JWKS) did not answer in time.");
  if (error instanceof errors.JWTExpired) return new InvalidTokenError('The token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    const claim = error.claim;
    if (claim === 'nbf') return new InvalidTokenError('The token is not valid yet (nbf).');
    if (claim === 'aud') return new InvalidTokenError('The token was not issued for this server (aud).');
    if (claim === 'iss') return new InvalidTokenError('The token comes from another issuer (iss).');
    if (claim === 'typ')
      return new InvalidTokenError('The token is not a JWT access token (typ must be at+jwt).');
    return new InvalidTokenError(`The token's ${claim} claim is missing or invalid.`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return new InvalidTokenError('The token is signed with an algorithm this server refuses.');
  if (error instanceof errors.JWKSNoMatchingKey)
    return new InvalidTokenError("The token's signing key is not one of the issuer's.");
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new InvalidTokenError("The token's signature is invalid.");
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported
  ) {
    return new InvalidTokenError('The token is not a well-formed signed JWT.');
  }
  // jose's plain JOSEError (ERR_JOSE_GENERIC) and JWKSInvalid mean the JWKS response itself was bad.
  if (
    error instanceof errors.JWKSInvalid ||
    (error instanceof errors.JOSEError && error.code === 'ERR_JOSE_GENERIC')
  ) {
    return new KeysUnavailableError("The issuer's keys (JWKS) could not be read.");
  }
  if (error instanceof errors.JOSEError) return new InvalidTokenError('The token could not be verified.');
  // Anything else is the JWKS fetch itself failing (refused connection, bad JSON, HTTP error).
  return new KeysUnavailableError("The issuer's keys (JWKS) could not be fetched.");
}
