// @ts-check
/**
 * The plan behind `pnpm start:secure` (scripts/start-secure.mjs): which service listens where, and
 * how each one is wired to the others, from the port variables; why it must not start (a port
 * in use, a wiring variable that contradicts the ports); and the banner. Pure but for `busyPorts`,
 * so secure-stack.test.mjs checks the wiring without starting anything.
 */
import net from 'node:net';

/** The ports of module 11's commands; a variable of the same name moves a service. */
export const DEFAULT_PORTS = {
  AUTH_PORT: 3003,
  PORT: 3000,
  AGENT_PORT: 3001,
  DEMO_MODEL_PORT: 3002,
  // The agent's second port, the sandbox proxy that tools' views run in (MCP Apps, module 14).
  AGENT_VIEW_SANDBOX_PORT: 3004,
};
const HOST = '127.0.0.1';
/** The ports the refusal suggests for a second stack: the defaults moved by this much. */
const SPARE_OFFSET = 110;

/** What each port variable moves, for the messages. */
const PORT_OWNERS = {
  AUTH_PORT: 'the authorization server',
  PORT: 'the MCP server',
  AGENT_PORT: 'the agent',
  DEMO_MODEL_PORT: 'the demo model',
  AGENT_VIEW_SANDBOX_PORT: "the agent's sandbox for tools' views",
};

/**
 * Variables this script derives from the ports. One you export that says otherwise would wire a
 * service to another one (e.g. the agent to the unsecured server of `pnpm start`), so it refuses.
 */
const DERIVED = [
  'HOST',
  'AUTH_HOST',
  'AGENT_HOST',
  'DEMO_MODEL_HOST',
  'AUTH_ISSUER',
  'MCP_AUTH_ISSUER',
  'MCP_OAUTH_ISSUER',
  'MCP_RESOURCE_URL',
  'MCP_SERVER_URL',
  'DEMO_MODEL_URL',
];

export class PlanError extends Error {
  /** @override */
  name = 'PlanError';
}

/** A port from the environment, or its default; a bad value is a PlanError saying which. */
function portFrom(env, key) {
  const raw = env[key];
  if (raw === undefined || raw === '') return DEFAULT_PORTS[key];
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new PlanError(`${key}=${raw} is not a port: give a whole number from 1 to 65535.`);
  }
  return port;
}

/**
 * The four services in start order, each `{ name, entry, port, health, env }`, with every URL one
 * of them uses to reach another built from the same ports. `env` is the caller's environment.
 */
export function planSecureStack(env = {}) {
  const ports = Object.fromEntries(Object.keys(DEFAULT_PORTS).map((key) => [key, portFrom(env, key)]));
  const taken = new Map();
  for (const [key, port] of Object.entries(ports)) {
    if (taken.has(port)) {
      throw new PlanError(
        `${taken.get(port)} and ${key} are both ${port}: give each service a port of its own.`,
      );
    }
    taken.set(port, key);
  }
  const issuer = `http://${HOST}:${ports.AUTH_PORT}`;
  const server = `http://${HOST}:${ports.PORT}`;
  const resource = `${server}/mcp`;
  const agent = `http://${HOST}:${ports.AGENT_PORT}`;
  const demoModel = `http://${HOST}:${ports.DEMO_MODEL_PORT}`;
  const services = [
    {
      name: 'auth-server',
      entry: 'services/auth-server/dist/index.js',
      port: ports.AUTH_PORT,
      health: `${issuer}/health`,
      env: {
        AUTH_HOST: HOST,
        AUTH_PORT: `${ports.AUTH_PORT}`,
        AUTH_ISSUER: issuer,
        MCP_RESOURCE_URL: resource,
      },
    },
    {
      name: 'mcp-server',
      entry: 'services/mcp-server/dist/index.js',
      port: ports.PORT,
      health: `${server}/health`,
      env: { HOST, PORT: `${ports.PORT}`, MCP_AUTH_ISSUER: issuer, MCP_RESOURCE_URL: resource },
    },
    {
      name: 'demo-model',
      entry: 'services/demo-model/dist/index.js',
      port: ports.DEMO_MODEL_PORT,
      health: `${demoModel}/health`,
      env: { DEMO_MODEL_HOST: HOST, DEMO_MODEL_PORT: `${ports.DEMO_MODEL_PORT}` },
    },
    {
      name: 'agent',
      entry: 'services/agent/dist/index.js',
      port: ports.AGENT_PORT,
      health: `${agent}/health`,
      env: {
        AGENT_HOST: HOST,
        AGENT_PORT: `${ports.AGENT_PORT}`,
        AGENT_VIEW_SANDBOX_PORT: `${ports.AGENT_VIEW_SANDBOX_PORT}`,
        MCP_SERVER_URL: resource,
        DEMO_MODEL_URL: `${demoModel}/v1`,
        MCP_OAUTH_CLIENT_ID: 'workshop-agent',
        MCP_OAUTH_CLIENT_SECRET: 'workshop-agent-secret',
        MCP_OAUTH_ISSUER: issuer,
      },
    },
  ];
  const conflicts = wiringConflicts(env, services);
  if (conflicts.length > 0) {
    throw new PlanError(
      [
        'start:secure wires the services to each other from AUTH_PORT, PORT, AGENT_PORT and DEMO_MODEL_PORT, and these exported variables say otherwise:',
        ...conflicts.map(
          ({ key, yours, planned }) => `  ${key}=${yours} (start:secure would set ${planned})`,
        ),
        `Unset them (e.g. \`unset ${conflicts.map(({ key }) => key).join(' ')}\`), and move a service with its port variable instead.`,
      ].join('\n'),
    );
  }
  return { ports, issuer, resource, agent, services };
}

/** Exported wiring variables that differ from what the plan sets for the service that reads them. */
function wiringConflicts(env, services) {
  const conflicts = [];
  for (const key of DERIVED) {
    const yours = env[key];
    if (yours === undefined || yours === '') continue;
    const planned = services.map((service) => service.env[key]).find((value) => value !== undefined);
    if (planned !== undefined && yours !== planned) conflicts.push({ key, yours, planned });
  }
  return conflicts;
}

/** The environment a service starts with: yours (API keys, log level, limits), then its wiring. */
export function serviceEnv(service, env) {
  return { ...env, ...service.env };
}

/**
 * What to do when some of the plan's ports are taken (`busy`: the port variables' keys). The usual
 * cause is module 1's `pnpm start`, which holds 3000 to 3002 and 3004.
 */
export function busyPortsMessage(plan, busy) {
  const lines = busy.map((key) => `  ${plan.ports[key]} (${key}, ${PORT_OWNERS[key]})`);
  // 3000-3004 become 3110-3114: clear of module 1's stack and of the compose profiles' 3010-3034.
  const spare = Object.entries(DEFAULT_PORTS)
    .map(([key, port]) => `${key}=${port + SPARE_OFFSET}`)
    .join(' ');
  return [
    'start:secure did not start: these ports are in use:',
    ...lines,
    'If it is `pnpm start` (module 1) or an earlier start:secure, stop it first (Ctrl-C in its terminal).',
    `Or run the secure stack beside it, on ports of its own: ${spare} pnpm start:secure`,
  ].join('\n');
}

/** The keys of `plan.ports` whose port something on 127.0.0.1 already listens on. */
export async function busyPorts(plan) {
  const busy = [];
  for (const [key, port] of Object.entries(plan.ports)) {
    if (!(await canListen(port))) busy.push(key);
  }
  return busy;
}

function canListen(port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, HOST, () => probe.close(() => resolve(true)));
  });
}

/**
 * What start:secure prints once every service answers: the URLs really in use, and how a person
 * signs in (the web chat is the agent's own, signed in as a machine; `pnpm chat` signs in a person).
 */
export function banner(plan, env = {}) {
  // With AGENT_API_TOKEN exported the bare URL only shows "needs the link": point at the link instead.
  const chat = env.AGENT_API_TOKEN
    ? `the one-time link the agent printed above (${plan.agent}/?token=…)`
    : plan.agent;
  const password = (key, fallback) => (env[key] ? `your ${key}` : fallback);
  const metadata = `${plan.resource.replace(/\/mcp$/, '')}/.well-known/oauth-protected-resource/mcp`;
  return `
Sign-in is on. Open ${chat} for the chat (the agent is signed in as workshop-agent).
  authorization server  ${plan.issuer}   (clients and users: services/auth-server/README.md)
  MCP server            ${plan.resource}   (metadata: ${metadata})
  people                demo (password ${password('AUTH_DEMO_PASSWORD', 'demo')}) and guest (password ${password('AUTH_GUEST_PASSWORD', 'guest')}), each with a task list of their own:
                        MCP_SERVER_URL=${plan.resource} MCP_OAUTH_CLIENT_ID=workshop-chat MCP_OAUTH_ISSUER=${plan.issuer} pnpm chat
Ctrl-C stops everything.`;
}
