/**
 * @module prompts
 * The one list of prompts this server offers, in the order `prompts/list` shows them. Each prompt
 * lives in its own file with its test beside it.
 */
import type { CataloguePrompt } from '@mcp-workshop/mcp-host/kit';
import type { ToolDeps } from '../deps.js';
import { explainTask } from './explain-task.js';
import { planTrip } from './plan-trip.js';
import { reviewTasks } from './review-tasks.js';

/** A prompt of this catalogue, as the list holds it. */
export type WorkshopPrompt = CataloguePrompt<ToolDeps>;

export const prompts: readonly WorkshopPrompt[] = [planTrip, reviewTasks, explainTask];
