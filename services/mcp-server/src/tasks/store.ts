/**
 * @module tasks/store
 * What the task tools need from storage. `sqlite-store.ts` implements it over a real SQLite
 * database file under `DATA_DIR`.
 */

export interface Task {
  id: number;
  title: string;
  done: boolean;
  /** ISO 8601 timestamps. */
  createdAt: string;
  completedAt: string | null;
}

export type TaskStatusFilter = 'all' | 'open' | 'done';

export interface TaskStore {
  add(title: string): Task;
  list(status: TaskStatusFilter): Task[];
  get(id: number): Task | undefined;
  /** Marks a task done; returns undefined when there is no such task. */
  complete(id: number): Task | undefined;
  /** Deletes a task; returns the deleted task, or undefined when there is no such task. */
  delete(id: number): Task | undefined;
  close(): void;
}
