/**
 * @module run-bundle.test
 * `runBundle` on a small bundle in a temp folder: it runs the main chunk and returns its exports,
 * hands the chunks the entry's import function, and saves the code cache when asked to. What a
 * real start loads, under both loaders, is dev/host-integration's cold-start.test.ts.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IMPORT_PARAMETER } from './import-parameter.js';
import { runBundle } from './run-bundle.js';

let scratch: string;
let main: string;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'run-bundle-'));
  mkdirSync(join(scratch, 'dist'));
  mkdirSync(join(scratch, 'cache'));
  main = join(scratch, 'dist', 'index.main.cjs');
  writeFileSync(
    main,
    `exports.answer = require("./index.part.cjs").answer; exports.os = ${IMPORT_PARAMETER}("node:os");`,
  );
  writeFileSync(join(scratch, 'dist', 'index.part.cjs'), 'exports.answer = 42;');
});

afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const importModule = (specifier: string): Promise<unknown> => import(specifier);

describe('runBundle', () => {
  it('runs the main chunk, by file URL or path, and returns its exports', async () => {
    const byUrl = runBundle(pathToFileURL(main), { importModule, cacheDirectory: undefined }) as {
      answer: number;
      os: Promise<{ platform: unknown }>;
    };
    expect(byUrl.answer).toBe(42);
    expect(typeof (await byUrl.os).platform).toBe('function');
    expect(runBundle(main, { importModule, cacheDirectory: undefined })).toMatchObject({ answer: 42 });
  });

  it('saves the code cache of every chunk it compiled once the delay is over', async () => {
    const cache = join(scratch, 'cache');
    runBundle(main, { importModule, cacheDirectory: cache, saveAfterMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readdirSync(cache).filter((name) => !name.endsWith('.tmp'))).toHaveLength(2);
  });
});
