/**
 * @module conformance/test-support/connect
 * An in-memory client on a server built with real deps (task store in a fresh temporary
 * directory, offline weather), with or without the conformance fixtures. The workshop's own
 * resources list tasks, so `testDeps()`'s unset store would throw. Not built.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { announceTaskChanges, createTaskEvents, openTaskStore } from '@mcp-workshop/task-store';
import {
  type Connected,
  type ConnectOptions,
  connectInMemory,
  testDeps,
} from '../../test-support/in-memory.js';
import { createOfflineWeather } from '../../weather/offline.js';

/** Connects a client; `close()` also closes the store and deletes its directory. */
export async function connectFixtures(options: ConnectOptions = {}): Promise<Connected> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  const logger = createSilentLogger();
  const base = testDeps();
  const taskEvents = createTaskEvents();
  const tasks = announceTaskChanges(openTaskStore({ dataDir, logger, now: base.now }), taskEvents);
  const deps = { ...base, weather: createOfflineWeather(base.now), tasks, taskEvents, logger };
  const connected = await connectInMemory(deps, options);
  return {
    client: connected.client,
    async close() {
      await connected.close();
      await tasks.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The same, with the fixtures on: what `MCP_CONFORMANCE=1` builds. */
export function connectWithFixtures(options: Omit<ConnectOptions, 'server'> = {}): Promise<Connected> {
  return connectFixtures({ ...options, server: { conformance: true } });
}
