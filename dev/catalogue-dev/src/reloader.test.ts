/**
 * @module reloader.test
 * `createReloader` with a fake reload and a fake clock: saves are gathered into one reload, reloads
 * never overlap, a save during one gets one more, a failure is reported with its place, and only
 * the catalogue's files count. `errorLocation` and `errorMessage` on the errors vite really throws.
 */
import { describe, expect, it } from 'vitest';
import { createReloader, errorLocation, errorMessage, type ReloadEvent } from './reloader.js';

const ROOT = '/path/to/catalogue';

function harness(reload: (files: string[]) => Promise<{ sessions: number }>) {
  const events: ReloadEvent[] = [];
  const reloader = createReloader({
    root: ROOT,
    concerns: (file) => file.startsWith(`${ROOT}/src/`),
    reload,
    report: (event) => events.push(event),
    gatherMs: 5,
  });
  return { reloader, events };
}

describe('createReloader', () => {
  it('gathers saves that come together into one reload', async () => {
    const calls: string[][] = [];
    const { reloader, events } = harness(async (files) => {
      calls.push(files);
      return { sessions: 2 };
    });
    reloader.changed(`${ROOT}/src/tools/b.ts`);
    reloader.changed(`${ROOT}/src/tools/a.ts`);
    reloader.changed(`${ROOT}/src/tools/a.ts`);
    await reloader.settled();
    expect(calls).toEqual([[`${ROOT}/src/tools/a.ts`, `${ROOT}/src/tools/b.ts`]]);
    expect(events).toMatchObject([{ kind: 'reloaded', sessions: 2 }]);
  });

  it('never runs two reloads at once, and gives a save during one a reload of its own', async () => {
    let running = 0;
    let most = 0;
    const calls: string[][] = [];
    let release: () => void = () => {};
    const { reloader } = harness(async (files) => {
      running++;
      most = Math.max(most, running);
      calls.push(files);
      if (calls.length === 1) await new Promise<void>((resolve) => (release = resolve));
      running--;
      return { sessions: 0 };
    });
    reloader.changed(`${ROOT}/src/one.ts`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    reloader.changed(`${ROOT}/src/two.ts`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await reloader.settled();
    expect(most).toBe(1);
    expect(calls).toEqual([[`${ROOT}/src/one.ts`], [`${ROOT}/src/two.ts`]]);
  });

  it('ignores files that are not the catalogue’s', async () => {
    const calls: string[][] = [];
    const { reloader } = harness(async (files) => {
      calls.push(files);
      return { sessions: 0 };
    });
    reloader.changed(`${ROOT}/dist/index.js`);
    await reloader.settled();
    expect(calls).toEqual([]);
  });

  it('reports a failed reload with its message and place, and reloads on the next save', async () => {
    let fail = true;
    const { reloader, events } = harness(async () => {
      if (fail)
        throw Object.assign(new Error('boom\nmore'), {
          stack: `Error: boom\n    at eval (${ROOT}/src/tools/x.ts:7:3)`,
        });
      return { sessions: 1 };
    });
    reloader.changed(`${ROOT}/src/tools/x.ts`);
    await reloader.settled();
    fail = false;
    reloader.changed(`${ROOT}/src/tools/x.ts`);
    await reloader.settled();
    expect(events).toMatchObject([
      { kind: 'failed', message: 'boom', location: { file: `${ROOT}/src/tools/x.ts`, line: 7, column: 3 } },
      { kind: 'reloaded', sessions: 1 },
    ]);
  });
});

describe('errorLocation and errorMessage', () => {
  it("read a transform error's place from its diagnostic and its file from its id", () => {
    const error = Object.assign(new Error('Transform failed with 1 error:\n...'), {
      id: `${ROOT}/src/tools/shout.ts`,
      errors: [
        {
          message:
            '\u001b[31m[PARSE_ERROR] \u001b[0mUnexpected token\n   \u001b[38;5;246m╭─[\u001b[0m src/tools/shout.ts:13:16 \u001b[38;5;246m]\u001b[0m',
        },
      ],
    });
    expect(errorLocation(error, ROOT)).toEqual({ file: `${ROOT}/src/tools/shout.ts`, line: 13, column: 16 });
    expect(errorMessage(error)).toBe('[PARSE_ERROR] Unexpected token');
  });

  it('take the first stack frame inside the catalogue, never one in node_modules', () => {
    const error = new Error('not ready');
    error.stack = [
      'Error: not ready',
      `    at helper (${ROOT}/node_modules/x/index.js:1:1)`,
      `    at eval (${ROOT}/src/tools/shout.ts:17:7)`,
    ].join('\n');
    expect(errorLocation(error, ROOT)).toEqual({ file: `${ROOT}/src/tools/shout.ts`, line: 17, column: 7 });
    expect(errorLocation(new Error('elsewhere'), '/nowhere')).toBeUndefined();
    expect(errorLocation('a string', ROOT)).toBeUndefined();
  });
});
