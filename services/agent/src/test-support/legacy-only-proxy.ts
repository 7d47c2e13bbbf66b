/**
 * @module test-support/legacy-only-proxy
 * Makes a dual-era MCP server look 2025-only: a loopback proxy that answers the 2026-07-28 probe
 * (`server/discover`) as a 2025 server on the SDK's session transport does, and forwards every
 * other request untouched. The agent then falls back to `initialize` and a real `Mcp-Session-Id`
 * session with the server behind it, through its own connection code. Partner:
 * `telemetry/telemetry.test.ts`.
 */
import { type ServedFetch, serveFetch } from '../mcp/test-support/serve-fetch.js';

/** Hop-by-hop and framing headers: fetch sets its own, and a copied one would lie about the body. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'content-length',
  'content-encoding',
  'transfer-encoding',
]);

function forwardable(headers: Headers): Headers {
  const kept = new Headers();
  for (const [name, value] of headers) if (!NOT_FORWARDED.has(name)) kept.append(name, value);
  return kept;
}

function isDiscover(body: string): boolean {
  try {
    return (JSON.parse(body) as { method?: unknown }).method === 'server/discover';
  } catch {
    return false;
  }
}

/** What the SDK's stateful 2025 transport answers to anything before `initialize`. */
const notInitialized = () =>
  Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Server not initialized' }, id: null },
    { status: 400 },
  );

/** Listens on 127.0.0.1 and forwards to `targetUrl` (the server's `/mcp`), except the probe. */
export function startLegacyOnlyProxy(targetUrl: string): Promise<ServedFetch> {
  return serveFetch(async (request) => {
    const body = request.method === 'POST' ? await request.text() : undefined;
    if (body !== undefined && isDiscover(body)) return notInitialized();
    const upstream = await fetch(targetUrl, {
      method: request.method,
      headers: forwardable(request.headers),
      ...(body !== undefined && { body }),
      signal: request.signal,
    });
    return new Response(upstream.body, { status: upstream.status, headers: forwardable(upstream.headers) });
  });
}
