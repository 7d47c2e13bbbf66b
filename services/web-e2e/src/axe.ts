/**
 * @module axe
 * Runs axe-core in a page and returns its serious and critical violations, each also printed with
 * the elements it names, so a failing accessibility check says what to fix.
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

export async function seriousAxeViolations(target: Page): Promise<AxeViolation[]> {
  await target.addScriptTag({ path: AXE_PATH });
  const violations = await target.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of serious) {
    console.error(
      `axe ${v.impact}: ${v.id} — ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  }
  return serious;
}
