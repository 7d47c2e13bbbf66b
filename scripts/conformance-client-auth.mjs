#!/usr/bin/env node
/**
 * Runs the official conformance suite's client scenarios for OAuth that fit the agent: it signs in
 * as a machine (client credentials, pre-registered), so these two. The suite's other auth scenarios
 * drive a person's authorization code flow with dynamic client registration or client ID metadata
 * documents; the agent signs a person in with a pre-registered public client only.
 *   node scripts/conformance-client-auth.mjs    (root script: pnpm conformance:client)
 * Each scenario runs scripts/conformance-client.mjs, the agent's own client code, against the
 * suite's mock server and authorization server. Exits non-zero when any scenario fails.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findSuiteNode } from './lib/suite-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITE_CLI = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = ['auth/client-credentials-basic', 'auth/pre-registration'];
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
