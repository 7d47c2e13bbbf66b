/**
 * @module dev-status
 * What `pnpm dev`'s MCP server says about itself in the `dev` block of its `/health`: that it is a
 * reloading dev server, how its last save went (reloaded, or failed with the file and line), and
 * the background type check's findings. `pnpm ask` reads it to skip the build and to say when the
 * last save failed; the agent reads it to show the chat page's banner. Pure state: the dev server
 * feeds it reload events and type-check results. Test: `dev-status.test.ts`.
 */
import path from 'node:path';
import type { ReloadEvent } from './reloader.js';
import type { TypecheckResult } from './typecheck.js';

/** A place in the catalogue's sources, relative to its root with `/` (e.g. `src/tools/echo.ts`). */
export interface SourcePlace {
  file: string;
  line: number;
  column?: number;
}

/** The last save's reload: the new catalogue serves, or the last good one still does. */
export type LastReload =
  | { outcome: 'reloaded'; at: string; files: string[] }
  | { outcome: 'failed'; at: string; files: string[]; message: string; place: SourcePlace | null };

/** One type error, as `tsc` reports it. */
export interface TypeErrorReport extends SourcePlace {
  code: string;
  message: string;
}

/** The background type check (`typecheck.ts`); it never holds a reload back. */
export type TypecheckStatus =
  | { state: 'off'; reason: string }
  | { state: 'checking' }
  | { state: 'passed'; at: string }
  | { state: 'failed'; at: string; errorCount: number; errors: TypeErrorReport[] };

/** The `dev` block of `/health`. `reloading: true` is what tells a dev server from a shipped one. */
export interface DevStatusBlock {
  reloading: true;
  /** null until the first save. */
  lastReload: LastReload | null;
  typecheck: TypecheckStatus;
}

/** At most this many type errors are listed on `/health`; `errorCount` has them all. */
export const MAX_LISTED_TYPE_ERRORS = 20;

export interface DevStatus {
  block(): DevStatusBlock;
  /** Records a reload as the reloader reports it; returns whether the block changed. */
  reloaded(event: ReloadEvent): boolean;
  /** Records a type check's state; returns whether the block changed. */
  typechecked(result: TypecheckResult): boolean;
}

export function createDevStatus(root: string, now: () => Date = () => new Date()): DevStatus {
  let lastReload: LastReload | null = null;
  let typecheck: TypecheckStatus = { state: 'checking' };
  const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
  return {
    block: () => ({ reloading: true, lastReload, typecheck }),
    reloaded(event) {
      const at = now().toISOString();
      const files = event.files.map(relative);
      lastReload =
        event.kind === 'reloaded'
          ? { outcome: 'reloaded', at, files }
          : {
              outcome: 'failed',
              at,
              files,
              message: event.message,
              place: event.location
                ? {
                    file: relative(event.location.file),
                    line: event.location.line,
                    ...(event.location.column !== undefined && { column: event.location.column }),
                  }
                : null,
            };
      return true;
    },
    typechecked(result) {
      const before = JSON.stringify(withoutTime(typecheck));
      const at = now().toISOString();
      typecheck =
        result.state === 'failed'
          ? {
              state: 'failed',
              at,
              errorCount: result.errors.length,
              errors: result.errors.slice(0, MAX_LISTED_TYPE_ERRORS).map((error) => ({
                ...error,
                file: relative(path.resolve(root, error.file)),
              })),
            }
          : result.state === 'passed'
            ? { state: 'passed', at }
            : result;
      return JSON.stringify(withoutTime(typecheck)) !== before;
    },
  };
}

function withoutTime(status: TypecheckStatus): unknown {
  return { ...status, at: undefined };
}

/** `src/tools/echo.ts:12:5`, for a person. */
export function describePlace(place: SourcePlace): string {
  return `${place.file}:${place.line}${place.column === undefined ? '' : `:${place.column}`}`;
}
