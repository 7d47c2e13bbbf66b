/**
 * `announceRunChanges` over the real SQLite run store: every change a `tasks/get` would show is
 * announced once it is stored, with the run's owner; reads, steps and writes that change nothing
 * stored (a terminal run) are not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NewTaskRecord } from '@mcp-workshop/shared/tasks-port';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTodoEvents } from '../events.js';
import { createSilentLogger } from '../test-support/silent-logger.js';
import { announceRunChanges } from './announce.js';
import { openSqliteRunStore } from './sqlite-run-store.js';
import type { RunStore } from './types.js';

const NEW_RUN: NewTaskRecord = {
  owner: 'sub:alice',
  tool: 'generate_report',
  arguments: {},
  caller: {},
  ttlMs: 60_000,
  pollIntervalMs: 500,
};

describe('announceRunChanges', () => {
  let dataDir: string;
  let runs: RunStore;
  let heard: Array<[string, string]>;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'announce-runs-'));
    const events = createTodoEvents();
    heard = [];
    events.on('runChanged', (id, owner) => heard.push([id, owner]));
    runs = announceRunChanges(openSqliteRunStore({ dataDir, logger: createSilentLogger() }), events);
  });
  afterEach(async () => {
    await runs.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('announces a created run, each status change, an answer and a cancel, with the owner', async () => {
    const run = await runs.create(NEW_RUN);
    await runs.update(run.id, { status: 'working', statusMessage: 'section 1 of 8' });
    await runs.update(run.id, {
      status: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create', params: {} } },
    });
    await runs.answer('sub:alice', run.id, { confirm: { action: 'accept' } });
    await runs.cancel('sub:alice', run.id);
    expect(heard).toEqual(Array.from({ length: 5 }, () => [run.id, 'sub:alice']));
  });

  it('announces nothing for reads, steps, another owner, or a run already finished', async () => {
    const run = await runs.create(NEW_RUN);
    await runs.update(run.id, { status: 'completed', result: { content: [] } });
    heard.length = 0;
    await runs.get('sub:alice', run.id);
    await runs.load(run.id);
    await runs.steps(run.id);
    await runs.saveStep(run.id, 'section:1', 'text');
    // Bob's cancel of Alice's run finds nothing; a finished run takes no further status.
    expect(await runs.cancel('sub:bob', run.id)).toBeUndefined();
    expect(await runs.update(run.id, { status: 'working' })).toBeUndefined();
    expect(await runs.answer('sub:bob', run.id, {})).toBeUndefined();
    await runs.unfinished();
    expect(heard).toEqual([]);
  });
});
