#!/usr/bin/env node
/**
 * `pnpm start:secure`: the workshop with sign-in on, on one machine.
 *   - the development authorization server on http://127.0.0.1:3003 (services/auth-server);
 *   - the MCP server on http://127.0.0.1:3000/mcp, with MCP_AUTH_ISSUER and MCP_RESOURCE_URL set;
 *   - the offline demo model on :3002, and the agent's web chat and API on :3001, signed in as
 *     `workshop-agent` with the client-credentials grant.
 * Your environment passes through, so a variable you set wins (e.g. OPENAI_API_KEY). Ctrl-C stops all.
 * doc/security.md explains each step.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from './lib/processes.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ISSUER = 'http://127.0.0.1:3003';
const RESOURCE = 'http://127.0.0.1:3000/mcp';
const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;

const SERVICES = [
  {
    name: 'auth-server',
    entry: 'services/auth-server/dist/index.js',
    health: `${ISSUER}/health`,
    env: { AUTH_HOST: '127.0.0.1', AUTH_PORT: '3003', AUTH_ISSUER: ISSUER, MCP_RESOURCE_URL: RESOURCE },
  },
  {
    name: 'mcp-server',
    entry: 'services/mcp-server/dist/index.js',
    health: 'http://127.0.0.1:3000/health',
    env: { HOST: '127.0.0.1', PORT: '3000', MCP_AUTH_ISSUER: ISSUER, MCP_RESOURCE_URL: RESOURCE },
  },
  {
    name: 'demo-model',
    entry: 'services/demo-model/dist/index.js',
    health: 'http://127.0.0.1:3002/health',
    env: { DEMO_MODEL_HOST: '127.0.0.1', DEMO_MODEL_PORT: '3002' },
  },
  {
    name: 'agent',
    entry: 'services/agent/dist/index.js',
    health: 'http://127.0.0.1:3001/health',
    env: {
      MCP_SERVER_URL: RESOURCE,
      DEMO_MODEL_URL: 'http://127.0.0.1:3002/v1',
      MCP_OAUTH_CLIENT_ID: 'workshop-agent',
      MCP_OAUTH_CLIENT_SECRET: 'workshop-agent-secret',
      MCP_OAUTH_ISSUER: ISSUER,
    },
  },
];

const running = [];

function start({ name, entry, env }) {
  // Our settings first, then yours: a variable you exported wins.
  const child = spawn(process.execPath, [path.join(ROOT, entry)], {
    env: { ...env, ...process.env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  running.push({ name, child, exited });
  exited.then((code) => {
    if (!stopping) {
      console.error(`${name} exited (${code ?? 'signal'}); stopping the others.`);
      void stopAll(1);
    }
  });
}

async function waitFor(url) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${READY_TIMEOUT_MS / 1000} s`);
}

let stopping = false;
async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  await Promise.all(running.map((service) => stopChild(service, STOP_GRACE_MS)));
  process.exit(code);
}

process.once('SIGINT', () => void stopAll(0));
process.once('SIGTERM', () => void stopAll(0));

try {
  // The MCP server discovers the issuer at start-up, so the authorization server comes first.
  const [auth, ...rest] = SERVICES;
  start(auth);
  await waitFor(auth.health);
  for (const service of rest) start(service);
  await Promise.all(rest.map((service) => waitFor(service.health)));
  // With AGENT_API_TOKEN exported the bare URL only shows "needs the link": point at the link instead.
  const chat = process.env.AGENT_API_TOKEN
    ? 'the one-time link the agent printed above (http://127.0.0.1:3001/?token=…)'
    : 'http://127.0.0.1:3001';
  console.log(`
Sign-in is on. Open ${chat} for the chat (the agent is signed in as workshop-agent).
  authorization server  ${ISSUER}   (users: demo / demo; clients in services/auth-server/README.md)
  MCP server            ${RESOURCE}   (metadata: http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp)
Ctrl-C stops everything.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stopAll(1);
}
