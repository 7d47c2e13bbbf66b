/**
 * @module lib
 * What tests of other packages may import: the factories, never the entry file. The agent never
 * imports this; it reaches the demo model over HTTP only.
 */
export type { DemoModelEnv } from './env.js';
export { DEFAULT_DEMO_MODEL_PORT, DEMO_MODEL_ENV_KEYS, loadDemoModelEnv } from './env.js';
export type { DemoModelAppOptions } from './server.js';
export { createDemoModelApp } from './server.js';
export type { RunningDemoModel, StartDemoModelOptions } from './start.js';
export { startDemoModel } from './start.js';
export { DEMO_LABEL, DEMO_MODEL_ID } from './types.js';
