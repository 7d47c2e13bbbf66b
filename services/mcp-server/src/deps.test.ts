/**
 * @module deps.test
 * `createDeps`: DATA_DIR is checked at once, the task database opens only when first needed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EnvError } from '@mcp-workshop/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';
import { createSilentLogger } from './logger.js';
import { TASKS_DB_FILE } from './tasks/sqlite-store.js';

describe('createDeps', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'deps-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('creates DATA_DIR at once but opens the task database on first use', () => {
    const dataDir = path.join(root, 'nested', 'data');
    const deps = createDeps(loadEnv({ DATA_DIR: dataDir }), createSilentLogger());
    expect(fs.existsSync(dataDir)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, TASKS_DB_FILE))).toBe(false);
    expect(deps.tasks.list('all')).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, TASKS_DB_FILE))).toBe(true);
    deps.tasks.close();
  });

  it('opens the task database on openTasks()', () => {
    const deps = createDeps(loadEnv({ DATA_DIR: root }), createSilentLogger());
    deps.openTasks();
    expect(fs.existsSync(path.join(root, TASKS_DB_FILE))).toBe(true);
    deps.tasks.close();
  });

  it('throws an EnvError naming DATA_DIR when the folder cannot be created', () => {
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, '');
    const dataDir = path.join(file, 'data');
    const create = () => createDeps(loadEnv({ DATA_DIR: dataDir }), createSilentLogger());
    expect(create).toThrow(EnvError);
    expect(create).toThrow(`DATA_DIR=${JSON.stringify(dataDir)}`);
  });
});
