/**
 * @module tasks/notify
 * Task status notifications (SEP-2663): when a task changes, here or on another replica, the
 * 2026-07-28 `subscriptions/listen` streams of its owner that named it in `taskIds` get
 * `notifications/tasks` with the task exactly as `tasks/get` answers it. The SDK's listen router
 * (with series patch 08) keeps `taskIds`, acknowledges them and filters by them; this module only
 * publishes, on HTTP to the owner-scoped bus (`publishTaskStatus`), on stdio through the
 * connection's 2026-07-28 instance (`stdio.ts`).
 *
 * Who hears what: a task's status goes to its owner's streams alone, so a stream that names another
 * owner's task id is acknowledged like any id and hears nothing, exactly as for an id that does not
 * exist. The task is read again for each change, so a notification always says what is stored, and
 * the reads of one task are chained, so its notifications go out in the order it changed. Nothing
 * is read while the owner has no stream open. Test: `notify.test.ts`; over HTTP:
 * `dev/host-integration/src/http/tasks.http.test.ts`.
 */
import type { OwnerEventBus } from '../http/owner-bus.js';
import type { Logger } from '../logger.js';
import type { TaskRuntime } from './runtime.js';
import { detailedTask } from './wire.js';

export type DetailedTask = ReturnType<typeof detailedTask>;

/** Where a task's status goes: whether anyone of `owner`'s could hear it now, and how to send it. */
export interface TaskStatusTarget {
  listening(owner: string): boolean;
  send(owner: string, task: DetailedTask): void;
}

/** Reads each changed task its owner listens for, and sends it to `target`; returns how to stop. */
export function watchTaskStatus(runtime: TaskRuntime, target: TaskStatusTarget, logger: Logger): () => void {
  /** The read in flight per task, so a later change is read (and sent) after an earlier one. */
  const chains = new Map<string, Promise<void>>();
  const send = async (id: string, owner: string) => {
    const run = await runtime.get(owner, id);
    if (run) target.send(owner, detailedTask(run));
  };
  return runtime.onChange((id, owner) => {
    if (!target.listening(owner)) return;
    const next = (chains.get(id) ?? Promise.resolve())
      .then(() => send(id, owner))
      .catch((error: unknown) =>
        logger.warn({ err: error, taskId: id }, 'could not read a task to notify its listeners'),
      )
      .finally(() => {
        if (chains.get(id) === next) chains.delete(id);
      });
    chains.set(id, next);
  });
}

/** On HTTP: to the owner's listen streams, through the owner-scoped bus. */
export function publishTaskStatus(runtime: TaskRuntime, bus: OwnerEventBus, logger: Logger): () => void {
  return watchTaskStatus(
    runtime,
    {
      listening: (owner) => bus.listening(owner),
      send: (owner, task) => bus.publishTo(owner, { kind: 'task_status', task }),
    },
    logger,
  );
}
