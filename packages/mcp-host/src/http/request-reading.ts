/**
 * @module http/request-reading
 * One reading of each request, made once after sign-in and body parsing, and shared by everything
 * that decides about the request: the rate limits, the scope check, the endpoint's routing and the
 * per-client stream shares. Two parts of the server reading the same body two ways is how a scope
 * check gets bypassed (ADR 015), so nothing after this looks at the raw body to decide anything.
 *
 * Resource URIs are kept as the SDK will match them: the SDK parses them with WHATWG `URL`, which
 * drops tabs and newlines anywhere and C0 controls and spaces at the ends, and lowercases the
 * scheme. A URI the parser refuses is kept in a conservative form as well, so a check that
 * matches on the scheme can never be dodged by a spelling the parser would have cleaned up.
 * Test: `request-reading.test.ts`.
 */
import { isPlainObject } from '@mcp-workshop/shared';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { ownerOf } from '../auth/caller.js';

/** What one JSON-RPC message asks for, as far as any check here cares. */
export interface MessageReading {
  /** `tools/call`, `resources/read`, …; undefined for a response or a body that is not JSON-RPC. */
  method: string | undefined;
  /** The tool (`tools/call`) or prompt (`prompts/get`, a prompt's completion) it names. */
  name: string | undefined;
  /** Every resource URI it names, as the SDK will match them (see {@link normalizeResourceUri}). */
  uris: string[];
  /** A request's id (a string or a number); undefined for a notification, a response or junk. */
  id?: string | number;
}

export interface RequestReading {
  /** `modern` for a 2026-07-28 POST, by the SDK's own classifier; everything else is `legacy`. */
  era: 'modern' | 'legacy';
  /** A JSON array body (2025-03-26 batches). */
  batch: boolean;
  messages: MessageReading[];
  /** How many `tools/call`s the request carries (a batch may carry several). */
  toolCalls: number;
  /**
   * Whose data the request touches (`ownerOf`: `sub:<subject>`, or `''` with sign-in off): what a
   * session is pinned to, with the client id, so the session and its data always agree on who.
   */
  owner: string;
  /** The token's client id when sign-in is on. */
  clientId: string | undefined;
  /**
   * Who the request counts against for limits and shares: the subject and client id when
   * signed in, else the client address. Never the token.
   */
  clientKey: string;
}

const readings = new WeakMap<Request, RequestReading>();

/** Single-value header, as the SDK reads it (a repeated header counts as its first value). */
function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The client a request counts against: who signed in, or where it comes from. Never the token.
 * From the request's reading when it has one (`/mcp`, the curl path), so the limits on those hot
 * paths do not work it out a second time; `/health`, which is never read, computes it here.
 */
export function clientKeyOf(req: Request): string {
  const read = readings.get(req);
  if (read) return read.clientKey;
  const auth = req.auth;
  return auth ? clientKeyFor(ownerOf(auth), auth.clientId) : addressKeyOf(req);
}

/**
 * A signed-in client's key: the owner and client id as a JSON pair, which no other pair spells.
 * Joined with a separator instead, subjects and client ids that hold the separator could meet in
 * one bucket (`sub:a|client:b` + `c` and `sub:a` + `b|client:c`). An address key starts `ip:`,
 * never `[`, so the two kinds never meet either.
 */
function clientKeyFor(owner: string, clientId: string): string {
  return JSON.stringify([owner, clientId]);
}

/** Who a request is, read once: its owner, client id and client key. */
function whoIs(req: Request): Pick<RequestReading, 'owner' | 'clientId' | 'clientKey'> {
  const auth = req.auth;
  if (!auth) return { owner: ownerOf(undefined), clientId: undefined, clientKey: addressKeyOf(req) };
  const owner = ownerOf(auth);
  return { owner, clientId: auth.clientId, clientKey: clientKeyFor(owner, auth.clientId) };
}

/** The address alone, for what is counted before a token is verified. */
export function addressKeyOf(req: Request): string {
  // ipKeyGenerator groups an IPv6 client's /56, so rotating addresses inside it doesn't dodge a limit.
  return `ip:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`;
}

/** Control characters, and every other kind of space: what a URI parser or a person's eye skips over. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROLS = /[\u0000-\u0020\u007f-\u009f]/g;
const SPACES = /[\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/g;

/**
 * A resource URI as the SDK's `resources/read` will look it up: `new URL(uri).href`. When the
 * parser refuses it (the SDK then answers "invalid URI"), every control character and whitespace
 * is removed and the scheme lowercased instead, so a scheme check still sees through it.
 */
export function normalizeResourceUri(uri: string): string {
  try {
    return new URL(uri).href;
  } catch {
    const stripped = uri.replace(CONTROLS, '').replace(SPACES, '');
    const colon = stripped.indexOf(':');
    return colon < 0 ? stripped : stripped.slice(0, colon).toLowerCase() + stripped.slice(colon);
  }
}

/** The scheme of a normalised URI, lowercased, without the colon; '' when it has none. */
export function schemeOf(normalizedUri: string): string {
  const colon = normalizedUri.indexOf(':');
  return colon < 0 ? '' : normalizedUri.slice(0, colon).toLowerCase();
}

function field(value: unknown, key: string): unknown {
  return isPlainObject(value) ? value[key] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function uriList(values: readonly unknown[]): string[] {
  return values.filter((value): value is string => typeof value === 'string').map(normalizeResourceUri);
}

/** What one message names, whatever its method; a shape the SDK will refuse names nothing. */
export function readMessage(message: unknown): MessageReading {
  const method = text(field(message, 'method'));
  const params = field(message, 'params');
  const reading: MessageReading = { method, name: undefined, uris: [] };
  const id = field(message, 'id');
  if (method !== undefined && (typeof id === 'string' || typeof id === 'number')) reading.id = id;
  switch (method) {
    case 'tools/call':
    case 'prompts/get':
      reading.name = text(field(params, 'name'));
      break;
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      reading.uris = uriList([field(params, 'uri')]);
      break;
    case 'subscriptions/listen': {
      const wanted = field(field(params, 'notifications'), 'resourceSubscriptions');
      reading.uris = Array.isArray(wanted) ? uriList(wanted) : [];
      break;
    }
    case 'completion/complete': {
      const ref = field(params, 'ref');
      if (field(ref, 'type') === 'ref/resource') reading.uris = uriList([field(ref, 'uri')]);
      else reading.name = text(field(ref, 'name'));
      break;
    }
  }
  return reading;
}

/** Would the SDK's `createMcpHandler` serve this POST as 2026-07-28? Its own classifier decides. */
function eraOf(req: Request): 'modern' | 'legacy' {
  if (req.method !== 'POST' || req.body === undefined) return 'legacy';
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header(req, 'mcp-protocol-version'),
    mcpMethodHeader: header(req, 'mcp-method'),
    mcpNameHeader: header(req, 'mcp-name'),
    body: req.body,
  });
  return outcome.kind === 'legacy' ? 'legacy' : 'modern';
}

/** Reads an `/mcp` request: call after sign-in and after the JSON body parser. */
export function readMcpRequest(req: Request): RequestReading {
  const body: unknown = req.method === 'POST' ? req.body : undefined;
  const batch = Array.isArray(body);
  const messages = body === undefined ? [] : (batch ? body : [body]).map(readMessage);
  return remember(req, {
    era: eraOf(req),
    batch,
    messages,
    toolCalls: messages.filter((message) => message.method === 'tools/call').length,
    ...whoIs(req),
  });
}

/** Reads a curl-path request: `POST /tools/:name` is one `tools/call`, `GET /tools` a list. */
export function readToolRouteRequest(req: Request, toolName: string | undefined): RequestReading {
  const messages: MessageReading[] =
    toolName === undefined
      ? [{ method: 'tools/list', name: undefined, uris: [] }]
      : [{ method: 'tools/call', name: toolName, uris: [] }];
  return remember(req, {
    era: 'legacy',
    batch: false,
    messages,
    toolCalls: toolName === undefined ? 0 : 1,
    ...whoIs(req),
  });
}

function remember(req: Request, reading: RequestReading): RequestReading {
  readings.set(req, reading);
  return reading;
}

/**
 * The reading made for `req`. Asking before the request was read is a bug in the middleware
 * order, so it throws rather than read the body a second way.
 */
export function readingOf(req: Request): RequestReading {
  const reading = readings.get(req);
  if (!reading)
    throw new Error(`No reading for ${req.method} ${req.originalUrl}: readRequest must run first.`);
  return reading;
}
