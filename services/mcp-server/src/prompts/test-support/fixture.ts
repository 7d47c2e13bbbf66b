/**
 * @module prompts/test-support/fixture
 * Real deps for the prompt tests: the offline weather at a fixed date and a task store in a
 * fresh temporary directory, wrapped so writes are announced like in production. Not built.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { announceTaskChanges, createTaskEvents, openTaskStore } from '@mcp-workshop/task-store';
import type { ToolDeps } from '../../tools/deps.js';
import { createOfflineWeather } from '../../weather/offline.js';

/** Midsummer noon in Oslo, so forecasts are repeatable and dates are easy to check. */
export const FIXED_NOW = new Date('2026-07-28T12:00:00Z');

export interface PromptFixture {
  deps: ToolDeps;
  /** Closes the store and deletes its directory. */
  cleanup(): void;
}

export function createPromptFixture(): PromptFixture {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'prompts-'));
  const logger = createSilentLogger();
  const now = () => FIXED_NOW;
  const taskEvents = createTaskEvents();
  const tasks = announceTaskChanges(openTaskStore({ dataDir, logger, now }), taskEvents);
  return {
    deps: { weather: createOfflineWeather(now), tasks, taskEvents, now, logger },
    async cleanup() {
      await tasks.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
