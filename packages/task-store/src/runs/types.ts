/**
 * @module runs/types
 * Storage for MCP Tasks, which this package calls "runs", beside its to-do items (`Todo`). The
 * record, its statuses, its steps and the queue's contract are the port's
 * (`@mcp-workshop/shared/tasks-port`), which the host's runtime uses too; a `RunStore` is that
 * storage plus what only the store's own side needs. Rows and steps live in the same database as
 * the task list (SQLite under `DATA_DIR`, or Postgres), with migrations.
 *
 * Who runs a run is the queue's business (a `TaskQueue`): in-process for SQLite (one process owns
 * the file), pg-boss for Postgres, so a run whose replica dies is picked up by another. A turn the
 * queue aborts gets a `RunHandOffError` as its signal's reason (`why`: `stopping` or `slice-over`),
 * and a handler that keeps throwing is retried `RUN_RETRY_LIMIT` times, then marked `failed` with
 * `GAVE_UP_ERROR` (`hand-off.ts`); slots are shared between owners by `fair-share.ts`.
 */
import type { TaskStorage } from '@mcp-workshop/shared/tasks-port';

/** The port's storage, with what the queue and the server's shutdown need besides. */
export interface RunStore extends TaskStorage {
  /** Runs still `working` or `input_required`, oldest first, for the queue to resume after a restart. */
  unfinished(): Promise<Array<{ id: string; owner: string }>>;
  close(): Promise<void>;
}
