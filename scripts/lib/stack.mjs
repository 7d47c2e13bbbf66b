// @ts-check
/**
 * The plan of `pnpm start` and `pnpm dev` (scripts/stack.mjs runs it): where the three services
 * listen, the agent's wiring to the other two when only their ports moved, the health URLs to wait on,
 * and the banner printed once all three answer. Pure, and tested by `stack.test.mjs`.
 */

/** The ports of `pnpm start`'s services when nothing moves them (the README's table). */
export const DEFAULT_STACK_PORTS = {
  PORT: 3000,
  AGENT_PORT: 3001,
  DEMO_MODEL_PORT: 3002,
  AGENT_VIEW_SANDBOX_PORT: 3004,
};

const LOOPBACK = '127.0.0.1';

/** A variable as the services read it: empty counts as unset (their env.ts files say so). */
const setting = (env, key) => (env[key] === undefined || env[key] === '' ? undefined : env[key]);

/** Where a browser on this machine reaches a service bound to `host`: a wildcard is not an address. */
export function browseHost(host) {
  if (host === '0.0.0.0') return LOOPBACK;
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The URLs of the stack `env` describes. The sandbox's port is the agent's setting; `0` (any free
 * port) is only known once the agent says it (`viewSandboxPort`, from its /api/status).
 */
export function stackUrls(env, viewSandboxPort) {
  const value = (key) => setting(env, key) ?? String(DEFAULT_STACK_PORTS[key]);
  const server = `http://${browseHost(setting(env, 'HOST') ?? LOOPBACK)}:${value('PORT')}`;
  const agentHost = browseHost(setting(env, 'AGENT_HOST') ?? LOOPBACK);
  const agent = `http://${agentHost}:${value('AGENT_PORT')}`;
  const model = `http://${browseHost(setting(env, 'DEMO_MODEL_HOST') ?? LOOPBACK)}:${value('DEMO_MODEL_PORT')}`;
  return {
    mcp: `${server}/mcp`,
    mcpHealth: `${server}/health`,
    chat: agent,
    agentHealth: `${agent}/health`,
    agentStatus: `${agent}/api/status`,
    sandbox: `http://${agentHost}:${viewSandboxPort ?? value('AGENT_VIEW_SANDBOX_PORT')}`,
    model: `${model}/v1`,
    modelHealth: `${model}/health`,
  };
}

/**
 * The agent's connection attempts when the stack starts it: the services start side by side, and
 * on a slow machine the catalogue's first load can outlast the agent's default eight attempts
 * (about 18 s), which would stop the whole stack. Thirty, the most the agent takes, wait about
 * 100 s with its backoff.
 */
export const STACK_CONNECT_ATTEMPTS = '30';

/**
 * The environment the services start with: `env` as it is, plus the agent's URLs of the server and
 * the demo model when only their ports were moved, so `PORT=3100 pnpm start` still hangs together,
 * and the agent's patience with a server that starts beside it. What the caller set wins.
 */
/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {NodeJS.ProcessEnv}
 */
export function stackEnv(env) {
  const urls = stackUrls(env);
  /** @type {Record<string, string>} */
  const wiring = {};
  if (!setting(env, 'MCP_SERVER_URL') && !setting(env, 'MCP_SERVERS_CONFIG'))
    wiring.MCP_SERVER_URL = urls.mcp;
  if (!setting(env, 'DEMO_MODEL_URL')) wiring.DEMO_MODEL_URL = urls.model;
  if (!setting(env, 'MCP_CONNECT_ATTEMPTS')) wiring.MCP_CONNECT_ATTEMPTS = STACK_CONNECT_ATTEMPTS;
  return { ...env, ...wiring };
}

/** `pnpm ask`, with the URLs it needs when the stack is not on the default ports. */
function askCommand(urls) {
  const defaults = stackUrls({});
  const moved = [
    urls.mcp !== defaults.mcp && `MCP_SERVER_URL=${urls.mcp}`,
    urls.model !== defaults.model && `DEMO_MODEL_URL=${urls.model}`,
  ].filter(Boolean);
  return [...moved, 'pnpm ask'].join(' ');
}

/** What `pnpm <task>` prints once the page, the server and the model all answer. */
export function stackBanner(task, urls) {
  const reload =
    task === 'dev'
      ? [
          '  Saves under services/mcp-server/src, views/ and skills/ reload the catalogue; sessions stay open.',
        ]
      : [];
  return [
    '',
    `The workshop is up (pnpm ${task}):`,
    `  chat page      ${urls.chat}`,
    `  MCP server     ${urls.mcp}`,
    `  view sandbox   ${urls.sandbox}   (tools' views run here, framed by the chat page)`,
    `  demo model     ${urls.model}`,
    ...reload,
    `Next: open the chat page, or in another terminal: ${askCommand(urls)} "What's the weather in Paris?"`,
    'Ctrl-C stops everything.',
    '',
  ].join('\n');
}
