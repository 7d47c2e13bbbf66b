/**
 * @module compile-cache.test
 * `enableCompileCache`: asks Node for its compile cache where the runtime has one, does nothing
 * where it has not (Node 20), and never throws, whatever Node answers.
 */
import { describe, expect, it } from 'vitest';
import { type CompileCacheApi, enableCompileCache } from './compile-cache.js';

/** Node 22's own numbers (`module.constants.compileCacheStatus`). */
const compileCacheStatus = { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 };

/** A `node:module` whose `enableCompileCache` answers `status` and records how it was called. */
function runtimeAnswering(status: number) {
  const calls: unknown[][] = [];
  const api: CompileCacheApi = {
    enableCompileCache: (...args: unknown[]) => {
      calls.push(args);
      return { status };
    },
    constants: { compileCacheStatus },
  };
  return { api, calls };
}

describe('enableCompileCache', () => {
  it('does nothing on a runtime without a compile cache (Node 20)', () => {
    expect(enableCompileCache({})).toBe('unavailable');
  });

  it("asks for Node's default place, so NODE_COMPILE_CACHE and the temp folder decide", () => {
    const { api, calls } = runtimeAnswering(compileCacheStatus.ENABLED);
    expect(enableCompileCache(api)).toBe('enabled');
    expect(calls).toEqual([[]]);
  });

  it.each([
    [compileCacheStatus.ALREADY_ENABLED, 'already-enabled'],
    [compileCacheStatus.DISABLED, 'disabled'],
    [compileCacheStatus.FAILED, 'failed'],
    [42, 'failed'],
  ] as const)('reads status %i as %j', (status, outcome) => {
    expect(enableCompileCache(runtimeAnswering(status).api)).toBe(outcome);
  });

  it('carries on when the runtime throws instead of answering (a folder it cannot create)', () => {
    const api: CompileCacheApi = {
      enableCompileCache: () => {
        throw new Error('EACCES: permission denied');
      },
      constants: { compileCacheStatus },
    };
    expect(enableCompileCache(api)).toBe('failed');
  });
});
