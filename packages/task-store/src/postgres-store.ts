/**
 * @module postgres-store
 * `openPostgresTodoStore()`: the {@link TodoStore} over Postgres (`DATABASE_URL`), through kysely
 * on a `pg` pool, so several replicas share one task list. It behaves like `sqlite-store.ts` down
 * to the strings: the same ids (numbered per owner, never reused), order, timestamps, messages and
 * answers for a missing id. Every write is one statement, so it is stored whole or not at all, and
 * it is acknowledged only after Postgres has committed it. Every statement names the task's owner
 * (store.ts), and the bound is per owner. A task's id is its `number` (migration 0003); the
 * table's identity is internal and never leaves this file. Contract:
 * `test-support/todo-store-contract.ts`.
 */
import { type Selectable, sql } from 'kysely';
import type pg from 'pg';
import type { Logger } from './logger.js';
import type { StoreDatabase } from './postgres-migrations.js';
import { openStoreDatabase } from './postgres-open.js';
import { failedBeforeSending, isConnectionError, pingDatabase } from './postgres-pool.js';
import {
  checkOwner,
  checkPageRequest,
  checkTitle,
  isTodoId,
  listFullError,
  MAX_TODOS,
  pageOf,
  type Todo,
  TodoAddUncertainError,
  type TodoStore,
  TodoStoreUnavailableError,
} from './store.js';

/** `number` is the id the owner sees; the row's own `id` never leaves this file (see the header). */
const COLUMNS = ['number', 'title', 'done', 'created_at', 'completed_at'] as const;

/**
 * Operations that may be sent again after a lost connection: reads, and `complete`, which keeps
 * the first completion time, so a second one changes nothing. Not add (a duplicate) nor delete (a
 * second one would answer "no such task" for a task the first one deleted).
 */
const SAFE_TO_RESEND = new Set(['list', 'listPage', 'get', 'complete']);

type Row = Pick<Selectable<StoreDatabase['tasks']>, (typeof COLUMNS)[number]>;

export interface PostgresTodoStore extends TodoStore {
  /** Resolves once Postgres answers a query: the readiness check. */
  ping(): Promise<void>;
}

export interface PostgresTodoStoreOptions {
  /** From `createStorePool()`; the store owns it from here, and `close()` ends it. */
  pool: pg.Pool;
  logger: Logger;
  /** Clock for `createdAt` and `completedAt`; tests pass a fixed one. */
  now?: () => Date;
  /** The per-owner list bound; only tests lower it, to reach it without 10,000 inserts. */
  maxTodos?: number;
}

/**
 * Migrates the schema (once across replicas; see postgres-migrations.ts) and returns the store.
 * Rejects with a `TodoStoreUnavailableError` when Postgres cannot be reached, and with a
 * `StoreMigrationError` naming DATABASE_URL (password redacted) when migrating fails otherwise.
 */
export async function openPostgresTodoStore({
  pool,
  logger,
  now = () => new Date(),
  maxTodos = MAX_TODOS,
}: PostgresTodoStoreOptions): Promise<PostgresTodoStore> {
  const { db, close } = await openStoreDatabase(pool);

  /**
   * A lost connection becomes the message the model can act on; anything else is a bug. An add
   * whose connection broke after it was sent may have been committed, so it gets its own message.
   */
  const guard = async <T>(op: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (first) {
      // A connection Postgres closed can go back to the pool before its socket reports the close,
      // and be handed to the next query. Sent once more, it gets another connection.
      if (!SAFE_TO_RESEND.has(op) || !isConnectionError(first)) return fail(op, first);
      try {
        return await run();
      } catch (again) {
        return fail(op, again);
      }
    }
  };
  const fail = (op: string, error: unknown): never => {
    if (!isConnectionError(error)) throw error;
    logger.warn({ err: error, op }, 'the task database is unreachable');
    if (op === 'add' && !failedBeforeSending(error)) throw new TodoAddUncertainError({ cause: error });
    throw new TodoStoreUnavailableError({ cause: error });
  };
  // Timestamps are made here, not by Postgres, so a test clock applies and they match SQLite's.
  const timestamp = () => sql<Date>`${now().toISOString()}::timestamptz`;

  return {
    async add(owner, title) {
      checkOwner(owner);
      checkTitle(title);
      const row = await guard('add', () =>
        db
          // Taking a slot and a number and inserting is one statement: the owner's count row's
          // lock makes concurrent adds for that owner take turns, and each re-checks the bound
          // against the count the last one left and takes the number after the last one's. The
          // first add of a new owner inserts the row, whose `last_number` default is a new owner's
          // first number (postgres-migrations.ts 0003); two such adds at once meet on the primary
          // key, and the second becomes the update. A refused add updates and inserts nothing, so
          // it takes no number.
          .with('slot', (qb) =>
            qb
              .insertInto('task_owner_count')
              .values({ owner, n: 1 })
              .onConflict((oc) =>
                oc
                  .column('owner')
                  .doUpdateSet((eb) => ({
                    n: eb('task_owner_count.n', '+', 1),
                    last_number: sql<string>`task_owner_count.last_number + 1`,
                  }))
                  .where('task_owner_count.n', '<', maxTodos),
              )
              .returning(['n', 'last_number']),
          )
          .insertInto('tasks')
          .columns(['owner', 'number', 'title', 'created_at'])
          .expression((eb) =>
            eb
              .selectFrom('slot')
              .select([
                sql<string>`${owner}::text`.as('owner'),
                'slot.last_number as number',
                sql<string>`${title}::text`.as('title'),
                timestamp().as('created_at'),
              ]),
          )
          .returning(COLUMNS)
          .executeTakeFirst(),
      );
      if (!row) throw listFullError(maxTodos);
      return toTodo(row);
    },
    async list(owner, status) {
      checkOwner(owner);
      const rows = await guard('list', () =>
        db
          .selectFrom('tasks')
          .select(COLUMNS)
          .where('owner', '=', owner)
          .$if(status !== 'all', (qb) => qb.where('done', '=', status === 'done'))
          .orderBy('number')
          .execute(),
      );
      return rows.map(toTodo);
    },
    async listPage(owner, status, page) {
      checkOwner(owner);
      checkPageRequest(page);
      const rows = await guard('listPage', () =>
        db
          .selectFrom('tasks')
          .select(COLUMNS)
          .where('owner', '=', owner)
          .where('number', '>', String(page.after))
          .$if(status !== 'all', (qb) => qb.where('done', '=', status === 'done'))
          .orderBy('number')
          .limit(page.limit + 1)
          .execute(),
      );
      return pageOf(rows.map(toTodo), page.limit);
    },
    async get(owner, id) {
      checkOwner(owner);
      if (!isTodoId(id)) return undefined;
      const row = await guard('get', () =>
        db
          .selectFrom('tasks')
          .select(COLUMNS)
          .where('owner', '=', owner)
          .where('number', '=', String(id))
          .executeTakeFirst(),
      );
      return row && toTodo(row);
    },
    async complete(owner, id) {
      checkOwner(owner);
      if (!isTodoId(id)) return undefined;
      const row = await guard('complete', () =>
        db
          .updateTable('tasks')
          // coalesce keeps the first completion time: a concurrent complete waits for the row
          // lock, then sees the time the first one stored.
          .set({ done: true, completed_at: sql<Date>`coalesce(completed_at, ${timestamp()})` })
          .where('owner', '=', owner)
          .where('number', '=', String(id))
          .returning(COLUMNS)
          .executeTakeFirst(),
      );
      return row && toTodo(row);
    },
    async delete(owner, id) {
      checkOwner(owner);
      if (!isTodoId(id)) return undefined;
      const row = await guard('delete', () =>
        db
          .with('gone', (qb) =>
            qb
              .deleteFrom('tasks')
              .where('owner', '=', owner)
              .where('number', '=', String(id))
              .returning(COLUMNS),
          )
          // Runs even though nothing below reads it (Postgres runs every writing CTE); only a
          // delete that found the task frees a slot, so a concurrent second delete frees none.
          .with('freed', (qb) =>
            qb
              .updateTable('task_owner_count')
              .set((eb) => ({ n: eb('n', '-', 1) }))
              .where('owner', '=', owner)
              .where(({ exists, selectFrom }) => exists(selectFrom('gone').select('number')))
              .returning('n'),
          )
          .selectFrom('gone')
          .selectAll()
          .executeTakeFirst(),
      );
      return row && toTodo(row);
    },
    ping: () => pingDatabase(pool),
    close,
  };
}

function toTodo(row: Row): Todo {
  return {
    id: Number(row.number),
    title: row.title,
    done: row.done,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at === null ? null : row.completed_at.toISOString(),
  };
}
