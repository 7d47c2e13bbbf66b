/**
 * @module tools
 * The one list of tools this server offers. To add a tool: create `src/tools/<name>.ts` with
 * `defineTool(...)` (copy a neighbour), put its test beside it, and add it to this list.
 */
import type { WorkshopTool } from './define-tool.js';
import { getTime } from './get-time.js';

export const tools: readonly WorkshopTool[] = [getTime];
