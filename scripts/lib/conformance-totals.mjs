// @ts-check
/**
 * The verdict on one run of the official conformance suite, from the checks it wrote, for
 * scripts/conformance.mjs: what passed, what failed, what was skipped, and the lines to print.
 * Pure: `conformance-totals.test.mjs` covers it.
 *
 * A SKIPPED check is a check that did not run (the Tasks and Skills scenarios skip everything on a
 * server without those extensions), so it fails the run like a FAILURE, unless it is one of
 * {@link ALLOWED_SKIPS}. A status this file does not know fails the run too, so a new one in a
 * later suite is looked at rather than passed. WARNING (a SHOULD not met) and INFO (a trace of
 * what was sent) are counted and, for warnings, listed, but pass.
 */

/**
 * `scenario/check` ids the suite skips on this server whatever it serves, each with the reason.
 * Checked against @modelcontextprotocol/conformance 0.2.0-alpha.12; delete an entry once the suite
 * or the catalogue makes it run.
 */
export const ALLOWED_SKIPS = new Map([
  [
    'tasks-status-notifications/tasks-status-notifications',
    'the suite skips it on every server: its harness still reads the tools/call stream, not subscriptions/listen',
  ],
  [
    'server-stateless/sep-2575-server-sends-tools-list-changed-on-subscription',
    'the catalogue declares tools.listChanged: false (its tool list is fixed while it runs)',
  ],
  [
    'server-stateless/sep-2575-server-sends-prompts-list-changed-on-subscription',
    'the catalogue declares prompts.listChanged: false (its prompt list is fixed while it runs)',
  ],
]);

const KNOWN_STATUSES = new Set(['SUCCESS', 'FAILURE', 'WARNING', 'SKIPPED', 'INFO']);

/**
 * @param {Array<{ scenario: string, checks: Array<{ id: string, status: string, errorMessage?: string, description?: string }> }>} results
 * @param {number} expectedScenarios how many scenarios should have written results
 * @param {Map<string, string>} [allowedSkips]
 * @returns {{ lines: string[], passed: boolean }} `passed`: every expected scenario wrote results,
 *   and no check failed, was skipped without an allowance, or had an unknown status.
 */
export function conformanceTotals(results, expectedScenarios, allowedSkips = ALLOWED_SKIPS) {
  const checks = results.flatMap((r) => r.checks.map((check) => ({ scenario: r.scenario, check })));
  const withStatus = (status) => checks.filter(({ check }) => check.status === status);
  const skipped = withStatus('SKIPPED');
  const allowanceOf = ({ scenario, check }) => allowedSkips.get(`${scenario}/${check.id}`);
  const allowedSkipped = skipped.filter((entry) => allowanceOf(entry) !== undefined);
  /** @param {string} kind @param {(typeof checks)[number]} entry @returns {[string, (typeof checks)[number]]} */
  const tagged = (kind, entry) => [kind, entry];
  const blocking = [
    ...withStatus('FAILURE').map((entry) => tagged('FAILED', entry)),
    ...skipped.filter((entry) => allowanceOf(entry) === undefined).map((entry) => tagged('SKIPPED', entry)),
    ...checks
      .filter(({ check }) => !KNOWN_STATUSES.has(check.status))
      .map((entry) => tagged('UNKNOWN', entry)),
  ];
  const badScenarios = [...new Set(blocking.map(([, { scenario }]) => scenario))].sort();
  const warnings = withStatus('WARNING');

  const describe = ({ scenario, check }) =>
    `${scenario} / ${check.id}: ${check.errorMessage || check.description || check.status}`;
  const lines = [
    `Scenarios: ${results.length - badScenarios.length}/${expectedScenarios} passed` +
      (badScenarios.length ? ` (failed or skipped: ${badScenarios.join(', ')})` : ''),
    `Checks: ${withStatus('SUCCESS').length} passed, ${withStatus('FAILURE').length} failed, ` +
      `${skipped.length} skipped (${allowedSkipped.length} allowed), ${warnings.length} warnings, ` +
      `${withStatus('INFO').length} info`,
    ...blocking.map(([kind, entry]) =>
      kind === 'UNKNOWN'
        ? `  UNKNOWN STATUS ${entry.check.status} ${describe(entry)}`
        : `  ${kind} ${describe(entry)}`,
    ),
    ...allowedSkipped.map(
      (entry) => `  skipped (allowed: ${allowanceOf(entry)}) ${entry.scenario} / ${entry.check.id}`,
    ),
    ...warnings.map((entry) => `  warning ${describe(entry)}`),
  ];
  const complete = results.length === expectedScenarios && expectedScenarios > 0;
  return { lines, passed: complete && blocking.length === 0 };
}
