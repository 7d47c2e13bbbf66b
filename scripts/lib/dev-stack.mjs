// @ts-check
/**
 * Whether `pnpm dev` is running where `pnpm ask` and `pnpm chat` will look for the MCP server: its
 * `/health` then has a `dev` block with `reloading: true` (dev/catalogue-dev/src/dev-status.ts).
 * Such a server serves the catalogue from its sources and reloads it on each save, so
 * scripts/build-if-stale.mjs need not build the catalogue for it. The place looked at is the
 * launcher's (dev/launcher/src/plan.ts): HOST and PORT, 127.0.0.1:3000 by default, and nowhere
 * when MCP_SERVER_URL or MCP_SERVERS_CONFIG sends the agent elsewhere.
 */

/** Where `pnpm dev` serves the catalogue: what build-if-stale skips while a dev stack runs. */
export const CATALOGUE_PACKAGE_DIR = 'services/mcp-server';
/** A loopback answer comes in milliseconds; a port held by something that never answers must not stall `pnpm ask`. */
const HEALTH_TIMEOUT_MS = 1_000;
const DEFAULT_PORT = 3000;

/** The `/health` URL the launcher would reuse a server at, or undefined when it would not look. */
export function devHealthUrl(env) {
  if (env.MCP_SERVER_URL || env.MCP_SERVERS_CONFIG) return undefined;
  const host = env.HOST && env.HOST !== '0.0.0.0' && env.HOST !== '::' ? env.HOST : '127.0.0.1';
  const port = Number(env.PORT || DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/health`;
}

/**
 * `{ url, startedAt }` when a reloading dev server answers at `healthUrl` (`startedAt`: when it
 * started, from its uptime), else undefined: nothing listens, it is a shipped server, or it is
 * not ours.
 */
export async function findDevStack(healthUrl, fetchImpl = fetch) {
  if (!healthUrl) return undefined;
  try {
    const response = await fetchImpl(healthUrl, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    if (!response.ok) return undefined;
    const health = /** @type {{ dev?: { reloading?: boolean }, uptimeSeconds?: number } | null} */ (
      await response.json()
    );
    if (health?.dev?.reloading !== true) return undefined;
    const uptime = Number(health.uptimeSeconds);
    return {
      url: healthUrl.replace(/\/health$/, ''),
      startedAt: Number.isFinite(uptime) ? Date.now() - uptime * 1000 : undefined,
    };
  } catch {
    return undefined;
  }
}
