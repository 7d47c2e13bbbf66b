/**
 * @module index
 * The catalogue dev server as a library, for tests and tools: start it on a catalogue folder, and
 * the pieces it is made of.
 */
export type { CatalogueDev, CatalogueDevOptions } from './dev-server.js';
export { concernsCatalogue, startCatalogueDev } from './dev-server.js';
export type {
  DevStatusBlock,
  LastReload,
  SourcePlace,
  TypecheckStatus,
  TypeErrorReport,
} from './dev-status.js';
export { createDevStatus, describePlace, MAX_LISTED_TYPE_ERRORS } from './dev-status.js';
export type { CatalogueLoader } from './module-loader.js';
export { createCatalogueLoader } from './module-loader.js';
export type { ErrorLocation, ReloadEvent, Reloader, ReloaderOptions } from './reloader.js';
export { createReloader, errorLocation, errorMessage, GATHER_MS } from './reloader.js';
export type { ScratchCatalogue, ScratchDev } from './scratch.js';
export { makeScratchCatalogue, startDevOnScratchCopy } from './scratch.js';
export type { TypecheckResult, TypeErrorFound } from './typecheck.js';
export { readTscWatch } from './typecheck.js';
