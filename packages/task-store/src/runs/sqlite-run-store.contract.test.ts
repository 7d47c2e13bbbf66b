/**
 * @module runs/sqlite-run-store.contract.test
 * The shared run-store contract (`test-support/run-store-contract.ts`) against the SQLite adapter,
 * each test on a new database file in a temporary folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { describeRunStoreContract } from '../test-support/run-store-contract.js';
import { createSilentLogger } from '../test-support/silent-logger.js';
import { openSqliteRunStore } from './sqlite-run-store.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-run-contract-'));
let dataDir = '';
let databases = 0;
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describeRunStoreContract('SQLite', {
  async freshDatabase() {
    databases += 1;
    dataDir = path.join(root, `db-${databases}`);
  },
  async open(options) {
    return openSqliteRunStore({ dataDir, logger: createSilentLogger(), ...options });
  },
});
