/**
 * @module cpu-profile
 * Reads a V8 `.cpuprofile` (what `node --cpu-prof` writes) into self time per package: each sample's
 * function is mapped through the bundle's source map to the file it came from, and a file to its
 * package (`node_modules/.pnpm/<name>@<version>/…` → `<name>`, `packages/<dir>/` → that workspace
 * package, `services/mcp-server/src/` → the catalogue). V8's own entries (`(garbage collector)`,
 * `(program)`) and Node's built-ins (`node:http`, …) keep their names; `(idle)` is left out of the
 * total. Pure: the caller reads the files. Test: `cpu-profile.test.ts`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  where: string;
  /** Self time, milliseconds. */
  ms: number;
  /** Of all non-idle self time. */
  share: number;
  /** Of all non-idle time, the samples with this place anywhere on their stack (what it and its callees cost). */
  inclusiveShare: number;
}

/** Where a source file belongs: a package name, the catalogue, or the file's own name. */
export function packageOf(file: string): string {
  const normalized = file.split(path.sep).join('/');
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(normalized);
  if (pnpm) return pnpm[1] as string;
  const plain = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(normalized);
  if (plain) return plain[1] as string;
  const workspace = /(?:^|\/)(packages|services|dev)\/([^/]+)\//.exec(normalized);
  if (workspace)
    return workspace[2] === 'mcp-server'
      ? 'the catalogue (services/mcp-server)'
      : `@mcp-workshop/${workspace[2]}`;
  return normalized;
}

/** Where one profile frame's code lives, mapped through `maps` (by the script's file path) when one fits. */
function frameWhere(
  frame: ProfileNode['callFrame'],
  mapFor: (file: string) => SourceMapConsumer | undefined,
): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(V8 and native code)';
  // Node's internals by area (`node:internal/webstreams`, `node:internal/deps/undici`), not by file.
  if (url.startsWith('node:')) return /^node:internal\/(?:deps\/)?[^/]+/.exec(url)?.[0] ?? url;
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  const map = mapFor(file);
  // V8 gives -1 for a position it does not know (a script's top level, say).
  if (map && frame.lineNumber >= 0 && frame.columnNumber >= 0) {
    const original = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
    if (original.source) return packageOf(path.resolve(path.dirname(file), original.source));
  }
  return packageOf(file);
}

/** Self time per place, largest first, `(idle)` left out, with each place's inclusive share. */
export function selfTimeByPackage(
  profile: CpuProfile,
  mapFor: (file: string) => SourceMapConsumer | undefined,
): ProfileShare[] {
  const whereOf = new Map<number, string>();
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) {
    whereOf.set(node.id, frameWhere(node.callFrame, mapFor));
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  }
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const leaf = profile.samples[i] as number;
    const where = whereOf.get(leaf) ?? '(unknown)';
    if (where === '(idle)') continue;
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    self.set(where, (self.get(where) ?? 0) + delta);
    // Each place once per sample, however often it recurs on the stack.
    const onStack = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parentOf.get(id))
      onStack.add(whereOf.get(id) ?? '(unknown)');
    for (const place of onStack) inclusive.set(place, (inclusive.get(place) ?? 0) + delta);
  }
  const all = total || 1;
  return [...self.entries()]
    .map(([where, us]) => ({
      where,
      ms: us / 1000,
      share: us / all,
      inclusiveShare: (inclusive.get(where) ?? 0) / all,
    }))
    .sort((a, b) => b.ms - a.ms);
}

/** A `mapFor` over source maps read by `read` (the `.map` beside each script), each read once. */
export function sourceMapsFrom(
  read: (file: string) => string | undefined,
): (file: string) => SourceMapConsumer | undefined {
  const cache = new Map<string, SourceMapConsumer | undefined>();
  return (file) => {
    if (!cache.has(file)) {
      const text = read(`${file}.map`);
      cache.set(file, text === undefined ? undefined : new SourceMapConsumer(JSON.parse(text)));
    }
    return cache.get(file);
  };
}

/** Self and inclusive time per function of one place (`where`), largest inclusive first. */
export function functionsOf(
  profile: CpuProfile,
  mapFor: (file: string) => SourceMapConsumer | undefined,
  place: string,
): Array<{ fn: string; selfShare: number; inclusiveShare: number }> {
  const parentOf = new Map<number, number>();
  const nameOf = new Map<number, string | undefined>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parentOf.set(child, node.id);
    const where = frameWhere(node.callFrame, mapFor);
    nameOf.set(node.id, where === place ? functionLabel(node.callFrame, mapFor) : undefined);
  }
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const leaf = profile.samples[i] as number;
    const delta = profile.timeDeltas[i] ?? 0;
    if (profile.nodes.find((node) => node.id === leaf)?.callFrame.functionName === '(idle)') continue;
    total += delta;
    const own = nameOf.get(leaf);
    if (own) self.set(own, (self.get(own) ?? 0) + delta);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parentOf.get(id)) {
      const name = nameOf.get(id);
      if (name && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + delta);
      }
    }
  }
  const all = total || 1;
  return [...inclusive.entries()]
    .map(([fn, us]) => ({ fn, selfShare: (self.get(fn) ?? 0) / all, inclusiveShare: us / all }))
    .sort((a, b) => b.inclusiveShare - a.inclusiveShare);
}

function functionLabel(
  frame: ProfileNode['callFrame'],
  mapFor: (file: string) => SourceMapConsumer | undefined,
): string {
  const file = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  const map = frame.url === '' ? undefined : mapFor(file);
  if (map && frame.lineNumber >= 0 && frame.columnNumber >= 0) {
    const original = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
    if (original.source)
      return `${original.name ?? frame.functionName ?? '(anonymous)'} ${path.basename(original.source)}:${original.line}`;
  }
  return `${frame.functionName || '(anonymous)'} ${path.basename(file)}:${frame.lineNumber + 1}`;
}
