/**
 * @module runs/limits
 * The bounds every run store holds, and the checks both adapters call before they touch the
 * database, so SQLite and Postgres refuse the same things with the same words. A value past a bound
 * is a bug in whoever called (the host clamps what clients send before it gets here), so these
 * throw plain `Error`s, not messages for a model. Tested through the run-store contract.
 */
import { randomBytes } from 'node:crypto';
import type { NewTaskRecord, TaskError, TaskRecordUpdate, TaskStatus } from '@mcp-workshop/shared/tasks-port';
import { checkOwner } from '../store.js';

/** 128 random bits: nobody guesses another's run, and base64url keeps the id URL- and JSON-safe. */
export const RUN_ID_BYTES = 16;

/** 16 bytes in unpadded base64url are 22 characters; anything else never came from `newRunId`. */
const RUN_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * The most JSON one value may take (arguments, caller, result, error, one step), serialized as UTF-8.
 * A report is kilobytes; a mebibyte in one value is a runaway tool, and every poll would carry it.
 */
export const MAX_RUN_JSON_BYTES = 1024 * 1024;

/** MCP tool names are 1 to 128 characters (the specification's bound). */
export const MAX_RUN_TOOL_LENGTH = 128;

/** A status line for a person to read, not a log. */
export const MAX_RUN_STATUS_MESSAGE_LENGTH = 1_000;

/** A step's key names a step ("fetch:2026-07"); longer is a value smuggled into a key. */
export const MAX_RUN_STEP_KEY_LENGTH = 256;

/** The step an answer to the question `<key>` is recorded under; the runtime reads it back by this name. */
export const INPUT_STEP_PREFIX = 'input:';

/** Steps one run may record: a tool that needs more is looping, and a resume replays them all. */
export const MAX_RUN_STEPS = 1_000;

/** All of one run's step values together, so a resume reads a bounded amount. */
export const MAX_RUN_STEPS_BYTES = 16 * 1024 * 1024;

/** The longest a run is kept. The host picks each run's TTL (and clamps a client's); a month is past any sane one. */
export const MAX_RUN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A poll interval longer than an hour would make a client look dead. */
export const MAX_RUN_POLL_INTERVAL_MS = 60 * 60 * 1000;

/** The largest per-owner cap on active runs a store takes: past it, the cap protects nothing. */
export const MAX_ACTIVE_RUNS_LIMIT = 10_000;

/** `createWithin`'s cap: a whole number of runs, at least one (a cap of zero would refuse every run). */
export function checkMaxActive(maxActive: number): void {
  checkInteger('active-run cap (maxActive)', maxActive, 1, MAX_ACTIVE_RUNS_LIMIT);
}

export const ACTIVE_RUN_STATUSES: readonly TaskStatus[] = ['working', 'input_required'];
const ALL_STATUSES: ReadonlySet<string> = new Set<TaskStatus>([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
]);

export function newRunId(): string {
  return randomBytes(RUN_ID_BYTES).toString('base64url');
}

/** Whether `id` could name a run. Anything else is not worth a query (and Postgres text refuses a NUL). */
export function isRunId(id: unknown): id is string {
  return typeof id === 'string' && RUN_ID_PATTERN.test(id);
}

/** A value as stored: its JSON text, and that text's size in UTF-8 bytes. */
export interface StoredJson {
  json: string;
  bytes: number;
}

/** Serializes one value, refusing what JSON cannot hold and anything over {@link MAX_RUN_JSON_BYTES}. */
export function toStoredJson(what: string, value: unknown): StoredJson {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    // A BigInt or a cycle: the tool handed over something that is not data.
    throw new Error(`A run's ${what} must be JSON: ${(error as Error).message}`, { cause: error });
  }
  if (json === undefined) throw new Error(`A run's ${what} must be a JSON value, not ${typeof value}.`);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > MAX_RUN_JSON_BYTES) {
    throw new Error(
      `A run's ${what} is ${bytes} bytes of JSON; a run keeps at most ${MAX_RUN_JSON_BYTES} (MAX_RUN_JSON_BYTES).`,
    );
  }
  return { json, bytes };
}

/** What `create` stores besides the plain columns. */
export interface CheckedNewRun {
  arguments: StoredJson;
  caller: StoredJson;
}

export function checkNewRun(run: NewTaskRecord): CheckedNewRun {
  checkOwner(run.owner);
  checkText('tool', run.tool, 1, MAX_RUN_TOOL_LENGTH);
  checkInteger('ttlMs', run.ttlMs, 1, MAX_RUN_TTL_MS);
  checkInteger('pollIntervalMs', run.pollIntervalMs, 1, MAX_RUN_POLL_INTERVAL_MS);
  if (run.statusMessage !== undefined) {
    checkText('statusMessage', run.statusMessage, 0, MAX_RUN_STATUS_MESSAGE_LENGTH);
  }
  return {
    arguments: toStoredJson('arguments', checkObject('arguments', run.arguments)),
    caller: toStoredJson('caller', checkObject('caller', run.caller)),
  };
}

/** What `update` writes: the JSON of the result or error its status carries, null for the other. */
export interface CheckedUpdate {
  result: string | null;
  error: string | null;
  /** The open questions' JSON; null clears them; `keep` leaves them (input_required without new ones). */
  inputRequests: string | null | 'keep';
}

/**
 * A result goes with `completed` only, an error with `failed` only (each needs its own), and open
 * questions with `input_required` only.
 */
export function checkUpdate(update: TaskRecordUpdate): CheckedUpdate {
  if (!ALL_STATUSES.has(update.status))
    throw new Error(`Not a run status: ${JSON.stringify(update.status)}.`);
  if (update.statusMessage !== undefined && update.statusMessage !== null) {
    checkText('statusMessage', update.statusMessage, 0, MAX_RUN_STATUS_MESSAGE_LENGTH);
  }
  const completed = update.status === 'completed';
  const failed = update.status === 'failed';
  if (completed !== (update.result !== undefined)) {
    throw new Error(`A run's result goes with status completed, and only with it (got ${update.status}).`);
  }
  if (failed !== (update.error !== undefined)) {
    throw new Error(`A run's error goes with status failed, and only with it (got ${update.status}).`);
  }
  const asking = update.status === 'input_required';
  if (!asking && update.inputRequests !== undefined) {
    throw new Error(
      `A run's inputRequests go with status input_required, and only with it (got ${update.status}).`,
    );
  }
  return {
    result:
      update.result === undefined ? null : toStoredJson('result', checkObject('result', update.result)).json,
    error: update.error === undefined ? null : toStoredJson('error', checkRunError(update.error)).json,
    inputRequests: !asking
      ? null
      : update.inputRequests === undefined
        ? 'keep'
        : toStoredJson('inputRequests', checkInputRequests(update.inputRequests)).json,
  };
}

/** Each question's key names the step its answer is recorded under (`input:<key>`, see answers.ts). */
function checkInputRequests(requests: Record<string, unknown>): Record<string, unknown> {
  checkObject('inputRequests', requests);
  // A run that waits on no question could never be answered back to work.
  if (Object.keys(requests).length === 0)
    throw new Error("A run's inputRequests must hold at least one question.");
  for (const key of Object.keys(requests))
    checkText('input request key', key, 1, MAX_RUN_STEP_KEY_LENGTH - INPUT_STEP_PREFIX.length);
  return requests;
}

/** A tool that records this many steps, or bytes of steps, is looping: a bug, not something to retry. */
export function stepBoundError(maxSteps = MAX_RUN_STEPS, maxStepsBytes = MAX_RUN_STEPS_BYTES): Error {
  return new Error(
    `A run records at most ${maxSteps} steps (MAX_RUN_STEPS) and ${maxStepsBytes} bytes of ` +
      'step values in all (MAX_RUN_STEPS_BYTES); this one has reached a bound.',
  );
}

export function checkStepKey(key: string): void {
  checkText('step key', key, 1, MAX_RUN_STEP_KEY_LENGTH);
}

function checkRunError(error: TaskError): TaskError {
  if (typeof error !== 'object' || error === null || !Number.isSafeInteger(error.code)) {
    throw new Error("A run's error must be a JSON-RPC error: an integer code and a message.");
  }
  checkText('error message', error.message, 0, MAX_RUN_STATUS_MESSAGE_LENGTH);
  return error;
}

function checkObject(what: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`A run's ${what} must be a JSON object.`);
  }
  return value as Record<string, unknown>;
}

/** Text columns: bounded, and without NUL, which Postgres cannot store and SQLite could (they must agree). */
function checkText(what: string, value: unknown, min: number, max: number): void {
  if (typeof value !== 'string' || value.length < min || value.length > max || value.includes('\u0000')) {
    throw new Error(`A run's ${what} must be a string of ${min} to ${max} characters without NUL.`);
  }
}

function checkInteger(what: string, value: unknown, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
    throw new Error(`A run's ${what} must be an integer from ${min} to ${max}.`);
  }
}
