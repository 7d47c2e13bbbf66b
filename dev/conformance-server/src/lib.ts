/**
 * @module lib
 * What tests elsewhere import: the conformance catalogue (the workshop's plus the fixtures), to
 * serve with the host's `startCatalogue`, as the protocol suite and the browser tests do, and the
 * fixtures' registration on its own.
 */
export { default as conformanceCatalogue } from './catalogue.js';
export { registerConformanceFixtures } from './fixtures/index.js';
