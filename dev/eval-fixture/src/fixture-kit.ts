/**
 * @module fixture-kit
 * What every fixture tool is written with: `defineTool` bound to the fixture's (empty) deps, the
 * three kinds of annotations its tools share, and `stableId` / `stableNumber`, which derive ids and
 * figures from a call's arguments. The fixture measures which tool a model picks, not what a tool
 * does, so its results are small and the same for the same arguments: no network, no randomness.
 */
import { toolKit } from '@mcp-workshop/mcp-host/kit';

/** The fixture's tools need nothing from outside: everything they answer comes from their arguments. */
export type FixtureDeps = Record<string, never>;

export const { defineTool } = toolKit<FixtureDeps>();

/** Looks something up and changes nothing. */
export const READS = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/** Creates or changes something that can be changed back. */
export const WRITES = Object.freeze({
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
});

/** Removes, pays or sends something that cannot be taken back. */
export const DESTROYS = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
});

/** FNV-1a over the text: a small, stable hash, so the same arguments always give the same answer. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (const char of text) {
    value ^= char.codePointAt(0) ?? 0;
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** An id like `evt_3f2a91c0`, the same for the same parts. */
export function stableId(prefix: string, ...parts: readonly unknown[]): string {
  return `${prefix}_${hash(JSON.stringify(parts)).toString(16).padStart(8, '0')}`;
}

/** A whole number in [min, max], the same for the same seed: a price, a temperature, a count. */
export function stableNumber(seed: string, min: number, max: number): number {
  return min + (hash(seed) % (max - min + 1));
}
