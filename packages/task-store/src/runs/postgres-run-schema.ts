/**
 * @module runs/postgres-run-schema
 * The runs' tables in Postgres, as kysely sees them, and the migration that makes them (`0004_runs`
 * in `postgres-migrations.ts`, run by the same Migrator as the task list's). Used by
 * `postgres-run-store.ts`; SQLite's twin is migration 4 in `sqlite-store.ts`.
 */
import { type ColumnType, type Migration, sql } from 'kysely';
import { MAX_OWNER_LENGTH } from '../store.js';

/** JSON columns: `pg` parses `json` on the way out; the store writes the text it has checked. */
type Json<Write> = ColumnType<unknown, Write, Write>;

export interface RunTables {
  mcp_runs: {
    id: ColumnType<string, string, never>;
    owner: ColumnType<string, string, never>;
    tool: ColumnType<string, string, never>;
    arguments: Json<string>;
    caller: Json<string>;
    status: string;
    status_message: string | null;
    created_at: ColumnType<Date, string, never>;
    last_updated_at: ColumnType<Date, string, string>;
    /** `created_at` plus the TTL: what every reader compares with its clock. */
    expires_at: ColumnType<Date, string, never>;
    /** bigint: a month of milliseconds does not fit an integer. `pg` hands bigint back as a string. */
    ttl_ms: ColumnType<string, number, never>;
    poll_interval_ms: ColumnType<number, number, never>;
    result: Json<string | null>;
    error: Json<string | null>;
    /** The open questions while `input_required`, else null. */
    input_requests: Json<string | null>;
  };
  mcp_run_steps: {
    /** The order steps were recorded in. */
    seq: ColumnType<string, never, never>;
    run_id: string;
    step_key: string;
    value: Json<string>;
    /** The value's JSON size in bytes, for the per-run bound. */
    size: number;
  };
}

/**
 * `json`, not `jsonb`: it keeps the text exactly as written (key order, and `\u0000` inside strings,
 * which jsonb refuses), so a run reads back as SQLite's does. The foreign key deletes a run's steps
 * with it; the partial index serves `unfinished()` on a table that is mostly finished runs.
 */
export const RUNS_MIGRATION: Migration = {
  async up(db) {
    await sql`
      CREATE TABLE mcp_runs (
        id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{22}$'),
        owner text NOT NULL CHECK (char_length(owner) <= ${sql.lit(MAX_OWNER_LENGTH)}),
        tool text NOT NULL,
        arguments json NOT NULL,
        caller json NOT NULL,
        status text NOT NULL CHECK (status IN ('working', 'input_required', 'completed', 'failed', 'cancelled')),
        status_message text,
        created_at timestamptz NOT NULL,
        last_updated_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        ttl_ms bigint NOT NULL CHECK (ttl_ms > 0),
        poll_interval_ms integer NOT NULL CHECK (poll_interval_ms > 0),
        result json,
        error json,
        input_requests json
      )`.execute(db);
    await sql`CREATE INDEX mcp_runs_expires_at ON mcp_runs (expires_at)`.execute(db);
    await sql`
      CREATE INDEX mcp_runs_active ON mcp_runs (created_at)
        WHERE status IN ('working', 'input_required')`.execute(db);
    await sql`
      CREATE TABLE mcp_run_steps (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        run_id text NOT NULL REFERENCES mcp_runs (id) ON DELETE CASCADE,
        step_key text NOT NULL,
        value json NOT NULL,
        size integer NOT NULL CHECK (size >= 0),
        UNIQUE (run_id, step_key)
      )`.execute(db);
  },
};
