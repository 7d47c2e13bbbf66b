/**
 * @module compile-cache
 * Turns on Node's on-disk compile cache (`module.enableCompileCache`, Node ≥ 22.1) before a server's
 * entry loads the rest of it (`runBundle` does it first), so a start after the first reuses V8's
 * compiled code instead of compiling the bundle again. Node 20 has no such function: there this
 * does nothing.
 */
import nodeModule from 'node:module';

/** What became of the request; `runBundle` ignores it, the tests read it. */
export type CompileCacheOutcome = 'enabled' | 'already-enabled' | 'disabled' | 'failed' | 'unavailable';

/** The part of `node:module` this needs; on Node 20 and 22.0 `enableCompileCache` is missing. */
export interface CompileCacheApi {
  enableCompileCache?: (directory?: string) => { status: number };
  constants?: { compileCacheStatus?: Record<'ENABLED' | 'ALREADY_ENABLED' | 'FAILED' | 'DISABLED', number> };
}

/**
 * Asks Node for its compile cache in its default place: `NODE_COMPILE_CACHE` when set, else
 * `<os.tmpdir()>/node-compile-cache`, writable in the Docker image and on any desktop, and never
 * inside the (possibly read-only) install. `NODE_DISABLE_COMPILE_CACHE=1` turns it off. A cache
 * that cannot be created or written (read-only file system, full disk) costs only the speed-up:
 * Node reports it and carries on, and so does this; it never throws and never prints.
 */
export function enableCompileCache(
  api: CompileCacheApi = nodeModule as CompileCacheApi,
): CompileCacheOutcome {
  if (typeof api.enableCompileCache !== 'function') return 'unavailable';
  let status: number;
  try {
    ({ status } = api.enableCompileCache());
  } catch {
    return 'failed';
  }
  const codes = api.constants?.compileCacheStatus;
  if (status === codes?.ENABLED) return 'enabled';
  if (status === codes?.ALREADY_ENABLED) return 'already-enabled';
  if (status === codes?.DISABLED) return 'disabled';
  return 'failed';
}
