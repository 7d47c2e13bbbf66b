/**
 * @module index
 * The catalogue dev server as a library, for tests and tools: start it on a catalogue folder, and
 * the pieces it is made of.
 */
export type { CatalogueDev } from './dev-server.js';
export { concernsCatalogue, startCatalogueDev } from './dev-server.js';
export type { CatalogueLoader } from './module-loader.js';
export { createCatalogueLoader } from './module-loader.js';
export type { ErrorLocation, ReloadEvent, Reloader, ReloaderOptions } from './reloader.js';
export { createReloader, errorLocation, errorMessage, GATHER_MS } from './reloader.js';
export type { ScratchDev } from './scratch.js';
export { startDevOnScratchCopy } from './scratch.js';
