/**
 * @module llm/null-plan
 * Undoes the one change strict mode forces on a tool's arguments: optional fields had to become
 * "required but nullable", so the nulls the model sends for them are removed before the MCP call.
 * `strict-schema.ts` builds the plans; test: `null-plan.test.ts`.
 */
import { isRecord } from '@mcp-workshop/shared';

/** `$ref` chains in a plan are followed at most this far, so `A → B → A` cannot loop. */
export const MAX_REF_HOPS = 16;
/** Arguments nested deeper than this are passed on untouched; the schema walk already bounds the plan. */
export const MAX_ARGUMENT_DEPTH = 64;

/** How to undo strict mode's nulls for one place in the schema. */
export type NullPlan =
  | {
      kind: 'object';
      /** Every property the strict schema lists (the model must send exactly these). */
      keys: ReadonlySet<string>;
      /** Properties that were optional and not nullable: a null from the model means "left out". */
      optional: ReadonlySet<string>;
      properties: ReadonlyMap<string, NullPlan>;
    }
  | { kind: 'array'; items: NullPlan }
  | { kind: 'union'; variants: readonly NullPlan[] }
  | { kind: 'ref'; ref: string }
  | { kind: 'scalar' };

/** The plans for the root (`#`) and every definition, by the `$ref` that points at it. */
export type NullPlans = ReadonlyMap<string, NullPlan>;

/**
 * Removes the nulls the model had to send for optional fields, recursively, following `plans`.
 * A field that was nullable in the original schema keeps its null. Returns a new value; `value` is untouched.
 */
export function stripOptionalNulls(value: unknown, plans: NullPlans): unknown {
  const root = plans.get('#');
  return root ? applyPlan(value, root, plans, 0) : value;
}

function applyPlan(value: unknown, plan: NullPlan, plans: NullPlans, depth: number): unknown {
  if (depth > MAX_ARGUMENT_DEPTH) return value;
  const resolved = resolvePlan(plan, plans);
  if (!resolved) return value;
  switch (resolved.kind) {
    case 'object': {
      if (!isRecord(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        if (item === null && resolved.optional.has(key)) continue;
        const inner = resolved.properties.get(key);
        out[key] = inner ? applyPlan(item, inner, plans, depth + 1) : item;
      }
      return out;
    }
    case 'array':
      return Array.isArray(value)
        ? value.map((item) => applyPlan(item, resolved.items, plans, depth + 1))
        : value;
    case 'union': {
      // Strict mode makes the model send every key of exactly one variant, so the keys tell which one it chose.
      const fitting = resolved.variants.filter((variant) => fits(value, variant, plans));
      const [only] = fitting;
      return fitting.length === 1 && only ? applyPlan(value, only, plans, depth + 1) : value;
    }
    default:
      return value;
  }
}

function resolvePlan(plan: NullPlan, plans: NullPlans): Exclude<NullPlan, { kind: 'ref' }> | undefined {
  let current: NullPlan | undefined = plan;
  for (let hop = 0; hop <= MAX_REF_HOPS && current; hop += 1) {
    if (current.kind !== 'ref') return current;
    current = plans.get(current.ref);
  }
  return undefined;
}

function fits(value: unknown, plan: NullPlan, plans: NullPlans): boolean {
  const resolved = resolvePlan(plan, plans);
  if (!resolved) return false;
  switch (resolved.kind) {
    case 'object': {
      if (!isRecord(value)) return false;
      const keys = Object.keys(value);
      return keys.length === resolved.keys.size && keys.every((key) => resolved.keys.has(key));
    }
    case 'array':
      return Array.isArray(value);
    case 'union':
      return resolved.variants.some((variant) => fits(value, variant, plans));
    default:
      return !isRecord(value) && !Array.isArray(value);
  }
}
