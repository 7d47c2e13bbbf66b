// @ts-check
// Tests of scripts/lib/conformance-totals.mjs; run with `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALLOWED_SKIPS, conformanceTotals } from './conformance-totals.mjs';

const check = (id, status, errorMessage) => ({ id, status, ...(errorMessage && { errorMessage }) });
const PASSING = { scenario: 'ping', checks: [check('ping-ok', 'SUCCESS'), check('trace', 'INFO')] };

describe('conformanceTotals', () => {
  it('passes a run where every check succeeded, counting info records without listing them', () => {
    const totals = conformanceTotals([PASSING], 1);
    assert.ok(totals.passed);
    assert.deepEqual(totals.lines, [
      'Scenarios: 1/1 passed',
      'Checks: 1 passed, 0 failed, 0 skipped (0 allowed), 0 warnings, 1 info',
    ]);
  });

  it('fails on a FAILURE and names the scenario and the check', () => {
    const broken = { scenario: 'tools-list', checks: [check('tools-listed', 'FAILURE', 'no tools')] };
    const totals = conformanceTotals([PASSING, broken], 2);
    assert.equal(totals.passed, false);
    assert.equal(totals.lines[0], 'Scenarios: 1/2 passed (failed or skipped: tools-list)');
    assert.ok(totals.lines.includes('  FAILED tools-list / tools-listed: no tools'));
  });

  it('fails on a skip without an allowance, and lists it like a failure', () => {
    const skills = {
      scenario: 'sep-2640-skills-enumeration',
      checks: [check('skills-list', 'SKIPPED', 'no ext')],
    };
    const totals = conformanceTotals([PASSING, skills], 2);
    assert.equal(totals.passed, false);
    assert.equal(totals.lines[0], 'Scenarios: 1/2 passed (failed or skipped: sep-2640-skills-enumeration)');
    assert.match(totals.lines[1] ?? '', /0 failed, 1 skipped \(0 allowed\)/);
    assert.ok(totals.lines.includes('  SKIPPED sep-2640-skills-enumeration / skills-list: no ext'));
  });

  it('passes an allowed skip and prints its reason', () => {
    const allowed = new Map([['tasks-status-notifications/tasks-status-notifications', 'suite-side']]);
    const notes = {
      scenario: 'tasks-status-notifications',
      checks: [check('tasks-status-notifications', 'SKIPPED', 'pending rewrite')],
    };
    const totals = conformanceTotals([PASSING, notes], 2, allowed);
    assert.ok(totals.passed);
    assert.equal(totals.lines[0], 'Scenarios: 2/2 passed');
    assert.ok(
      totals.lines.includes(
        '  skipped (allowed: suite-side) tasks-status-notifications / tasks-status-notifications',
      ),
    );
  });

  it('allows only exact scenario/check pairs: the same check id in another scenario still fails', () => {
    const [key = ''] = ALLOWED_SKIPS.keys();
    const checkId = key.split('/')[1] ?? '';
    const elsewhere = { scenario: 'another-scenario', checks: [check(checkId, 'SKIPPED')] };
    assert.equal(conformanceTotals([elsewhere], 1).passed, false);
  });

  it('lists warnings but passes', () => {
    const warned = { scenario: 'sse', checks: [check('priming', 'WARNING', 'no priming event')] };
    const totals = conformanceTotals([warned], 1);
    assert.ok(totals.passed);
    assert.ok(totals.lines.includes('  warning sse / priming: no priming event'));
  });

  it('fails on a status it does not know, so a new one is looked at', () => {
    const odd = { scenario: 'future', checks: [check('new-kind', 'PARTIAL')] };
    const totals = conformanceTotals([odd], 1);
    assert.equal(totals.passed, false);
    assert.ok(totals.lines.includes('  UNKNOWN STATUS PARTIAL future / new-kind: PARTIAL'));
  });

  it('fails when a scenario wrote no results, or when none were expected', () => {
    assert.equal(conformanceTotals([PASSING], 2).passed, false);
    assert.equal(conformanceTotals([], 0).passed, false);
  });
});
