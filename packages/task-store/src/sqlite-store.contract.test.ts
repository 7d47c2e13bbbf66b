/**
 * @module sqlite-store.contract.test
 * The shared task-store contract (`test-support/todo-store-contract.ts`) against the SQLite
 * adapter, each test on a new file in a temporary folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { MIGRATIONS, openTodoStore, TASKS_DB_FILE } from './sqlite-store.js';
import { loadSqlite } from './sqlite-wasm.js';
import { createSilentLogger } from './test-support/silent-logger.js';
import { describeTodoStoreContract } from './test-support/todo-store-contract.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-contract-'));
let dataDir = '';
let databases = 0;
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describeTodoStoreContract('SQLite', {
  async freshDatabase() {
    databases += 1;
    dataDir = path.join(root, `db-${databases}`);
  },
  async open(options) {
    return openTodoStore({ dataDir, logger: createSilentLogger(), ...options });
  },
  async seedVersion1(tasks) {
    seedAtVersion(1, tasks, []);
  },
  async seedVersion2(tasks, deleted) {
    seedAtVersion(2, tasks, deleted);
  },
});

/**
 * Writes the current database the way a server of schema `version` wrote it: its migrations, its
 * rows (ids 1 to n; an owner only from version 2 on), then its deletes.
 */
function seedAtVersion(
  version: number,
  tasks: ReadonlyArray<{ owner?: string; title: string; done: boolean }>,
  deleted: readonly number[],
): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new (loadSqlite().Database)(path.join(dataDir, TASKS_DB_FILE));
  try {
    for (const migration of MIGRATIONS.slice(0, version)) db.exec(migration);
    db.exec(`PRAGMA user_version = ${version}`);
    for (const [index, task] of tasks.entries()) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString();
      const values = [task.title, task.done ? 1 : 0, at, task.done ? at : null];
      if (version < 2) {
        db.run('INSERT INTO tasks (title, done, created_at, completed_at) VALUES (?, ?, ?, ?)', values);
      } else {
        db.run('INSERT INTO tasks (owner, title, done, created_at, completed_at) VALUES (?, ?, ?, ?, ?)', [
          task.owner ?? '',
          ...values,
        ]);
      }
    }
    for (const id of deleted) db.run('DELETE FROM tasks WHERE id = ?', [id]);
  } finally {
    db.close();
  }
}
