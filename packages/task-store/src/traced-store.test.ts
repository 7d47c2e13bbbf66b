/**
 * The store's spans, on a real SDK tracer with an in-memory exporter: one database span per store
 * call that names the operation and never a value, and a refusal of the caller's input that is no
 * database error.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '@mcp-workshop/shared';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyTodoStore } from './lazy-store.js';
import { openTodoStore } from './sqlite-store.js';
import { type TodoStore, TodoStoreUnavailableError } from './store.js';
import { createSilentLogger } from './test-support/silent-logger.js';
import { traceTodoStore } from './traced-store.js';

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
  'test',
);
let dataDir: string | undefined;

afterEach(() => {
  exporter.reset();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function plainStore(): TodoStore {
  dataDir = mkdtempSync(join(tmpdir(), 'traced-store-'));
  return openTodoStore({ dataDir, logger: createSilentLogger() });
}

function sqliteStore() {
  return traceTodoStore(plainStore(), { system: 'sqlite' }, tracer);
}

describe('traceTodoStore', () => {
  it('makes one span per statement, named by operation and table, with no value in it', async () => {
    const store = sqliteStore();
    const task = await store.add('', 'call the plumber about the secret leak');
    await store.list('', 'all');
    await store.complete('', task.id);
    await store.delete('', task.id);
    await store.close();

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      'INSERT tasks',
      'SELECT tasks',
      'UPDATE tasks',
      'DELETE tasks',
    ]);
    for (const span of spans) {
      expect(span.attributes).toMatchObject({ 'db.system.name': 'sqlite', 'db.collection.name': 'tasks' });
      expect(span.status.code).toBe(0);
    }
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('plumber');
  });

  it('names host, port and database of Postgres, leaving the default port out', async () => {
    const store = traceTodoStore(
      lazyTodoStore(plainStore),
      { system: 'postgresql', address: 'db.internal', port: 5433, database: 'tasks' },
      tracer,
    );
    await store.list('', 'open');
    expect(exporter.getFinishedSpans()[0]?.attributes).toMatchObject({
      'db.system.name': 'postgresql',
      'db.namespace': 'tasks',
      'server.address': 'db.internal',
      'server.port': 5433,
    });
    await store.close();
  });

  it('does not call a refused title a database error, but does an unreachable database', async () => {
    const refused = new ToolError('A task title must be 1 to 200 characters long.');
    const down = new TodoStoreUnavailableError({
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const failing = (error: Error) =>
      traceTodoStore(
        {
          add: () => Promise.reject(error),
          list: () => Promise.reject(error),
          listPage: () => Promise.reject(error),
          get: () => Promise.reject(error),
          complete: () => Promise.reject(error),
          delete: () => Promise.reject(error),
          close: () => Promise.resolve(),
        } as TodoStore,
        { system: 'postgresql' },
        tracer,
      );
    await expect(failing(refused).add('', 'x'.repeat(300))).rejects.toBe(refused);
    await expect(failing(down).add('', 'milk')).rejects.toBe(down);

    const [refusedSpan, downSpan] = exporter.getFinishedSpans();
    expect(refusedSpan?.status.code).toBe(0);
    expect(refusedSpan?.attributes).not.toHaveProperty('error.type');
    expect(downSpan?.status.code).toBe(2);
    expect(downSpan?.attributes['error.type']).toBe('ECONNREFUSED');
  });
});
