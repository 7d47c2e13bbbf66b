/**
 * @module tasks/sqlite-store.contract.test
 * The shared task-store contract (`test-support/task-store-contract.ts`) against the SQLite
 * adapter, each test on a new file in a temporary folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { createSilentLogger } from '../logger.js';
import { openTaskStore } from './sqlite-store.js';
import { describeTaskStoreContract } from './test-support/task-store-contract.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-contract-'));
let dataDir = '';
let databases = 0;
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describeTaskStoreContract('SQLite', {
  async freshDatabase() {
    databases += 1;
    dataDir = path.join(root, `db-${databases}`);
  },
  async open(options) {
    return openTaskStore({ dataDir, logger: createSilentLogger(), ...options });
  },
});
