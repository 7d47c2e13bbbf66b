/**
 * @module tools
 * The one list of tools this server offers. To add a tool: create `src/tools/<name>.ts` with
 * `defineTool(...)` (copy a neighbour), put its test beside it, and add it to this list.
 */

import type { WorkshopTool } from '../deps.js';
import { addTask } from './add-task.js';
import { calculate } from './calculate.js';
import { completeTask } from './complete-task.js';
import { deleteTask } from './delete-task.js';
import { generateReport } from './generate-report.js';
import { getTime } from './get-time.js';
import { getWeather } from './get-weather.js';
import { listCities } from './list-cities.js';
import { listTasks } from './list-tasks.js';
import { taskBoardRefresh } from './task-board-refresh.js';

export const tools: readonly WorkshopTool[] = [
  getWeather,
  listCities,
  calculate,
  getTime,
  addTask,
  listTasks,
  completeTask,
  deleteTask,
  taskBoardRefresh,
  generateReport,
];
