/**
 * @module protocol-suite/cases
 * The one list of protocol cases, and the per-revision view the test file runs and counts.
 */
import type { ProtocolCase } from '../harness.js';
import { REVISIONS, type Revision } from '../revisions.js';
import { elicitationCases } from './elicitation.js';
import { hostileCases } from './hostile.js';
import { jsonRpcCases } from './json-rpc.js';
import { lifecycleCases } from './lifecycle.js';
import { modernCases } from './modern.js';
import { promptCases } from './prompts.js';
import { resourceCases } from './resources.js';
import { toolCases } from './tools.js';
import { transportCases } from './transport.js';
import { utilityCases } from './utilities.js';

export const CASES: readonly ProtocolCase[] = [
  ...lifecycleCases,
  ...jsonRpcCases,
  ...transportCases,
  ...hostileCases,
  ...toolCases,
  ...resourceCases,
  ...promptCases,
  ...utilityCases,
  ...elicitationCases,
  ...modernCases,
];

/** The cases that apply to `rev`, in list order. */
export function casesFor(rev: Revision): ProtocolCase[] {
  return CASES.filter((c) => c.revisions.includes(rev));
}

/** How many cases run for each revision, e.g. for "cases per revision" in a report. */
export function caseCounts(): Record<Revision, number> {
  return Object.fromEntries(REVISIONS.map((rev) => [rev, casesFor(rev).length])) as Record<Revision, number>;
}
