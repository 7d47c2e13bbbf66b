/**
 * @module lib
 * What tests elsewhere import: the fixtures, to hand to the catalogue's `createMcpServer` as its
 * `extend` option (`startLocalServer({ server: { extend: registerConformanceFixtures } })`, as the
 * protocol suite and the browser tests do). `node dist/index.js` serves the same over HTTP.
 */
export { registerConformanceFixtures } from './fixtures/index.js';
