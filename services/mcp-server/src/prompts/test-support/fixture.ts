/**
 * @module prompts/test-support/fixture
 * Real deps for the prompt tests: the offline weather at a fixed date and a task store in a
 * fresh temporary directory, wrapped so writes are announced like in production. Not built.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { announceTodoChanges, createTodoEvents, openTodoStore } from '@mcp-workshop/task-store';
import type { ToolDeps } from '../../deps.js';
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
  const todoEvents = createTodoEvents();
  const todos = announceTodoChanges(openTodoStore({ dataDir, logger, now }), todoEvents);
  return {
    deps: { weather: createOfflineWeather(now), todos, todoEvents, now, logger },
    async cleanup() {
      await todos.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
