#!/usr/bin/env node
// @ts-check
/**
 * `pnpm start:secure`: the workshop with sign-in on, on one machine.
 *   - the development authorization server on http://127.0.0.1:3003 (services/auth-server);
 *   - the MCP server on http://127.0.0.1:3000/mcp, with MCP_AUTH_ISSUER and MCP_RESOURCE_URL set;
 *   - the offline demo model on :3002, and the agent's web chat and API on :3001, signed in as
 *     `workshop-agent` with the client-credentials grant.
 * AUTH_PORT, PORT, DEMO_MODEL_PORT and AGENT_PORT move a service, and every URL that reaches it
 * follows (scripts/lib/secure-stack.mjs plans it). A port in use stops it before anything starts.
 * The rest of your environment passes through (e.g. OPENAI_API_KEY). Ctrl-C stops all.
 * doc/security.md explains each step.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from '@mcp-workshop/shared/processes';
import {
  banner,
  busyPorts,
  busyPortsMessage,
  PlanError,
  planSecureStack,
  serviceEnv,
} from './lib/secure-stack.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The agent signs in and connects after the others: a cold machine needs more than a few seconds. */
const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;

const running = [];
let stopping = false;

function start(service) {
  const child = spawn(process.execPath, [path.join(ROOT, service.entry)], {
    env: serviceEnv(service, process.env),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const entry = { ...service, child, exited };
  running.push(entry);
  exited.then((code) => {
    if (!stopping) {
      console.error(`${service.name} exited (${code}); stopping the others.`);
      void stopAll(1);
    }
  });
  return entry;
}

/** Resolves when the service's own health URL answers 2xx; rejects if it exits first or in time. */
async function waitFor({ name, health, exited }) {
  let gone = false;
  exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`${name} exited before it answered on ${health}`);
    const ok = await fetch(health, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok && !gone) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not answer on ${health} within ${READY_TIMEOUT_MS / 1000} s`);
}

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  await Promise.all(running.map((service) => stopChild(service.child, { graceMs: STOP_GRACE_MS })));
  process.exit(code);
}

process.once('SIGINT', () => void stopAll(0));
process.once('SIGTERM', () => void stopAll(0));

let plan;
try {
  plan = planSecureStack(process.env);
} catch (error) {
  if (!(error instanceof PlanError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const busy = await busyPorts(plan);
if (busy.length > 0) {
  console.error(busyPortsMessage(plan, busy));
  process.exit(2);
}

try {
  // The MCP server waits for its issuer, but starting the issuer first keeps the logs in order.
  const [auth, ...rest] = plan.services;
  await waitFor(start(auth));
  const started = rest.map(start);
  await Promise.all(started.map(waitFor));
  if (!stopping) console.log(banner(plan, process.env));
} catch (error) {
  if (!stopping) console.error(error instanceof Error ? error.message : error);
  await stopAll(1);
}
