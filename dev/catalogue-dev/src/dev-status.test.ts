/**
 * `createDevStatus`: the `dev` block of `/health` follows the reloads and the type check, with
 * places relative to the catalogue's root, a failed save until the next good one, and only the
 * first type errors listed.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDevStatus, describePlace, MAX_LISTED_TYPE_ERRORS } from './dev-status.js';

const ROOT = path.resolve('/catalogue');
const at = new Date('2026-12-07T12:00:00.000Z');
const status = () => createDevStatus(ROOT, () => at);

describe('createDevStatus', () => {
  it('says it reloads, with no save yet and a type check under way', () => {
    expect(status().block()).toEqual({ reloading: true, lastReload: null, typecheck: { state: 'checking' } });
  });

  it('keeps a failed save, with its file:line relative to the root, until the next good save', () => {
    const dev = status();
    dev.reloaded({
      kind: 'failed',
      files: [path.join(ROOT, 'src/tools/shout.ts')],
      ms: 5,
      message: '[PARSE_ERROR] Unexpected token',
      location: { file: path.join(ROOT, 'src/tools/shout.ts'), line: 13, column: 16 },
    });
    expect(dev.block().lastReload).toEqual({
      outcome: 'failed',
      at: at.toISOString(),
      files: ['src/tools/shout.ts'],
      message: '[PARSE_ERROR] Unexpected token',
      place: { file: 'src/tools/shout.ts', line: 13, column: 16 },
    });
    dev.reloaded({ kind: 'reloaded', files: [path.join(ROOT, 'src/tools/shout.ts')], ms: 5, sessions: 1 });
    expect(dev.block().lastReload).toEqual({
      outcome: 'reloaded',
      at: at.toISOString(),
      files: ['src/tools/shout.ts'],
    });
  });

  it('says when a failed save names no place', () => {
    const dev = status();
    dev.reloaded({ kind: 'failed', files: [], ms: 1, message: 'boom', location: undefined });
    expect(dev.block().lastReload).toMatchObject({ outcome: 'failed', place: null });
  });

  it('lists the first type errors, counts them all, and tells only real changes', () => {
    const dev = status();
    const errors = Array.from({ length: MAX_LISTED_TYPE_ERRORS + 3 }, (_, index) => ({
      file: 'src/tools/shout.ts',
      line: index + 1,
      column: 3,
      code: 'TS2322',
      message: "Type 'string' is not assignable to type 'number'.",
    }));
    expect(dev.typechecked({ state: 'failed', errors })).toBe(true);
    const shown = dev.block().typecheck;
    expect(shown).toMatchObject({ state: 'failed', errorCount: MAX_LISTED_TYPE_ERRORS + 3 });
    expect(shown.state === 'failed' && shown.errors).toHaveLength(MAX_LISTED_TYPE_ERRORS);
    expect(shown.state === 'failed' && shown.errors[0]).toEqual({ ...errors[0], file: 'src/tools/shout.ts' });
    expect(dev.typechecked({ state: 'failed', errors })).toBe(false);
    expect(dev.typechecked({ state: 'checking' })).toBe(true);
    expect(dev.typechecked({ state: 'passed' })).toBe(true);
    expect(dev.block().typecheck).toEqual({ state: 'passed', at: at.toISOString() });
  });

  it('describes a place as file:line[:column]', () => {
    expect(describePlace({ file: 'src/a.ts', line: 3 })).toBe('src/a.ts:3');
    expect(describePlace({ file: 'src/a.ts', line: 3, column: 7 })).toBe('src/a.ts:3:7');
  });
});
