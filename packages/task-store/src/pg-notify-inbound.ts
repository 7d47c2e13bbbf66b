/**
 * @module pg-notify-inbound
 * The receiving half of `pg-notify-relay.ts`: takes each payload LISTEN delivers, drops what is
 * malformed (one warn per interval, never a throw), and emits the rest on the local `TodoEvents`,
 * coalesced: per window, one `updated` per task (per owner and id, since ids are numbered per
 * owner; at most {@link MAX_PENDING_UPDATES}) and one `listChanged` per owner (at most as many
 * owners), so a burst of writes cannot turn into a burst of notifications. Past either bound, one
 * `listChanged` for every owner tells all to refetch. MCP tasks' changes (`runChanged`) coalesce
 * the same way, one per task per window; past the bound the rest of that window's are dropped with
 * a warning (a task's status notification is a hint: `tasks/get` still answers, and clients poll).
 * Test: `pg-notify-relay.test.ts`.
 */

import { EVERY_OWNER, type TodoEvents } from './events.js';
import type { Logger } from './logger.js';
import { decodeStoreNotice, type StoreNotice } from './pg-notify-payload.js';
import type { Todo } from './store.js';

/** A burst of writes becomes one `listChanged` per window; short enough to stay far under 1 s. */
const COALESCE_WINDOW_MS = 50;
/**
 * Distinct tasks, and distinct owners with a list change, remembered per window; past this, every
 * client is told to refetch its list instead.
 */
export const MAX_PENDING_UPDATES = 256;
/** One warn per interval for bad payloads, so a flood of them cannot flood the log. */
const MALFORMED_WARN_INTERVAL_MS = 10_000;

export interface Inbound {
  /** One payload as LISTEN delivered it. */
  receive(payload: string | undefined): void;
  /** Events may have been lost (LISTEN was down): tell listeners to refetch. */
  missed(): void;
  /** Drops what is pending and clears the timer. */
  stop(): void;
}

/** Coalesces what LISTEN delivers and emits it on `events`, at most once per window. */
export function createInbound(events: TodoEvents, logger: Logger): Inbound {
  /** Keyed by {@link taskKey}: ids are per owner, so an id alone would merge two owners' tasks. */
  const updates = new Map<string, { task: Todo; owner: string }>();
  const listChanged = new Set<string>();
  /** MCP tasks changed in this window, keyed by {@link taskKey} too (a forged notice may reuse a run id). */
  const runs = new Map<string, { id: string; owner: string }>();
  let droppedRuns = 0;
  /** Some change was not kept: every owner's list may have changed. */
  let everyone = false;
  let timer: NodeJS.Timeout | undefined;
  let malformed = 0;
  let lastWarnAt = -Infinity;

  const flush = () => {
    timer = undefined;
    const tasks = [...updates.values()];
    const owners = everyone ? [EVERY_OWNER] : [...listChanged];
    const changedRuns = [...runs.values()];
    updates.clear();
    listChanged.clear();
    runs.clear();
    everyone = false;
    for (const { task, owner } of tasks) emit(() => events.emit('updated', task, owner));
    for (const owner of owners) emit(() => events.emit('listChanged', owner));
    for (const { id, owner } of changedRuns) emit(() => events.emit('runChanged', id, owner));
    if (droppedRuns > 0) {
      logger.warn(
        { dropped: droppedRuns },
        'too many task status changes at once: some notifications were not sent',
      );
      droppedRuns = 0;
    }
  };
  // A throwing listener is a bug elsewhere; it must not take the LISTEN connection down with it.
  const emit = (send: () => void) => {
    try {
      send();
    } catch (error) {
      logger.error({ err: error }, 'a task event listener threw');
    }
  };
  const schedule = () => {
    timer ??= setTimeout(flush, COALESCE_WINDOW_MS);
  };
  const take = (notice: StoreNotice) => {
    if (notice.kind === 'missed') {
      everyone = true;
    } else if (notice.kind === 'runChanged') {
      const key = taskKey(notice.owner, notice.id);
      if (runs.has(key) || runs.size < MAX_PENDING_UPDATES)
        runs.set(key, { id: notice.id, owner: notice.owner });
      else droppedRuns += 1;
    } else if (notice.kind === 'listChanged') {
      if (listChanged.has(notice.owner) || listChanged.size < MAX_PENDING_UPDATES)
        listChanged.add(notice.owner);
      else everyone = true;
    } else if (updates.has(taskKey(notice.owner, notice.id)) || updates.size < MAX_PENDING_UPDATES) {
      // Relayed tasks carry no title (see pg-notify-payload.ts): listeners only name the URI.
      const { kind: _kind, owner, ...task } = notice;
      updates.set(taskKey(owner, task.id), { task: { ...task, title: '' }, owner });
    } else {
      // Too many distinct tasks at once: a list change makes every client refetch instead.
      everyone = true;
    }
    schedule();
  };

  return {
    receive(payload: string | undefined) {
      const notice = decodeStoreNotice(payload);
      if (notice) {
        take(notice);
        return;
      }
      malformed += 1;
      const now = Date.now();
      if (now - lastWarnAt >= MALFORMED_WARN_INTERVAL_MS) {
        logger.warn(
          { malformed, sample: payload?.slice(0, 80) },
          'ignored malformed task notification(s) on the LISTEN channel',
        );
        lastWarnAt = now;
        malformed = 0;
      }
    },
    missed() {
      everyone = true;
      schedule();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      updates.clear();
      listChanged.clear();
      runs.clear();
      everyone = false;
    },
  };
}

/**
 * One task's key (a listed task's numeric id, or an MCP task's run id) with its owner: JSON keeps
 * any owner (a forged one may hold any character) apart from the id.
 */
function taskKey(owner: string, id: number | string): string {
  return JSON.stringify([owner, id]);
}
