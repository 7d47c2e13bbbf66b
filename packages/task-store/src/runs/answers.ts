/**
 * @module runs/answers
 * What answering a run's open questions (`RunStore.answer`) changes, worked out once for both
 * stores: which responses are recorded as steps (`input:<key>`), and which questions stay open.
 * The stores apply the plan in one transaction with the run's row locked. Tested through the
 * run-store contract.
 */
import { INPUT_STEP_PREFIX, type StoredJson, toStoredJson } from './limits.js';

export interface AnswerPlan {
  /** Steps to record, in the order the responses came. */
  steps: Array<{ key: string; value: StoredJson }>;
  /** The questions still open, or null when none is left (the run works again). */
  left: Record<string, unknown> | null;
}

/**
 * The plan for `responses` to `open` questions; undefined when no response answers an open one
 * (unknown keys and keys answered before are ignored), so nothing changes.
 */
export function planAnswer(
  open: Record<string, unknown>,
  responses: Record<string, unknown>,
): AnswerPlan | undefined {
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    throw new Error('Input responses must be a JSON object keyed by the questions they answer.');
  }
  const left: Record<string, unknown> = { ...open };
  const steps: AnswerPlan['steps'] = [];
  for (const [key, value] of Object.entries(responses)) {
    if (!Object.hasOwn(left, key)) continue;
    steps.push({ key: `${INPUT_STEP_PREFIX}${key}`, value: toStoredJson('input response', value) });
    delete left[key];
  }
  if (steps.length === 0) return undefined;
  return { steps, left: Object.keys(left).length > 0 ? left : null };
}
