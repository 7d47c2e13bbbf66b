#!/usr/bin/env node
// @ts-check
/**
 * Runs the official conformance suite's OAuth client scenarios against the agent's own client code
 * (scripts/conformance-client.mjs, which calls connectServer), each against the suite's mock MCP
 * server and authorization server. A scenario with a client secret signs in as a machine; the
 * others sign a person in (authorization code + PKCE, the browser played by following redirects),
 * registering the client dynamically unless the scenario pre-registers one.
 *   node scripts/conformance-client-auth.mjs    (root script: pnpm conformance:client)
 * Left out, because the agent does not do them (doc/agent.md says why): basic-cimd (a client ID
 * metadata document needs a public https URL), client-credentials-jwt (private_key_jwt),
 * cross-app-access-complete-flow, and 2025-03-26-oauth-metadata-backcompat (its metadata names
 * another issuer than the one asked, and the SDK refuses that, as RFC 8414 section 3.3 says to).
 * Exits non-zero when any scenario fails.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findSuiteNode } from './lib/suite-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITE_CLI = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = [
  'metadata-default',
  'metadata-var1',
  'metadata-var2',
  'metadata-var3',
  'scope-from-www-authenticate',
  'scope-from-scopes-supported',
  'scope-omitted-when-undefined',
  'scope-step-up',
  'scope-retry-limit',
  'token-endpoint-auth-basic',
  'token-endpoint-auth-post',
  'token-endpoint-auth-none',
  'pre-registration',
  '2025-03-26-oauth-endpoint-fallback',
  'resource-mismatch',
  'offline-access-scope',
  'offline-access-not-supported',
  'client-credentials-basic',
].map((name) => `auth/${name}`);
const CLIENT = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(ROOT, 'scripts/conformance-client.mjs'))}`;
const SCENARIO_TIMEOUT_MS = 60_000;

const node = findSuiteNode();
let failed = 0;
for (const scenario of SCENARIOS) {
  const run = spawnSync(node, [SUITE_CLI, 'client', '--command', CLIENT, '--scenario', scenario], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: SCENARIO_TIMEOUT_MS,
  });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
  const ok = run.status === 0;
  if (!ok) failed++;
  console.log(
    `${ok ? '✓' : '✗'} ${scenario}: ${summary ? `${summary[1]}/${summary[2]} checks passed, ${summary[4]} warnings` : `exit ${run.status}`}`,
  );
  if (!ok) console.log(output.split('\n').slice(-40).join('\n'));
}
process.exit(failed === 0 ? 0 : 1);
