/**
 * @module prompts
 * The one list of prompts this server offers, and `registerPrompts()`, which `createMcpServer`
 * calls. Each prompt lives in its own file with its test beside it.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { paginateList } from '../server/pagination.js';
import type { ToolDeps } from '../tools/deps.js';
import type { WorkshopPrompt } from './define-prompt.js';
import { explainTask } from './explain-task.js';
import { planTrip } from './plan-trip.js';
import { reviewTasks } from './review-tasks.js';

/** Every prompt, in the order `prompts/list` shows them. */
const prompts: readonly WorkshopPrompt[] = [planTrip, reviewTasks, explainTask];

interface PromptRegistrationOptions {
  /** Items per page of prompts/list. */
  pageSize: number;
  /** The list may change while connected (`McpServerOptions.listChanged`). */
  listChanged?: boolean;
}

function registerPrompts(
  server: McpServer,
  deps: ToolDeps,
  { pageSize, listChanged = false }: PromptRegistrationOptions,
): void {
  // Before the first registerPrompt: the SDK keeps a listChanged it finds and only defaults it to
  // true. Ours is false unless a reloading host (`pnpm dev`) serves it: otherwise the list is fixed
  // for the life of the process. The SDK also adds `completions` (and its handler) at the first
  // completable argument; declaring it here says so where the prompts are, and index.test.ts
  // checks the handler really answers.
  server.server.registerCapabilities({ prompts: { listChanged }, completions: {} });
  for (const prompt of prompts) prompt.register(server, deps);
  paginateList(server, 'prompts/list', pageSize);
}

export type { PromptRegistrationOptions, WorkshopPrompt };
export { prompts, registerPrompts };
