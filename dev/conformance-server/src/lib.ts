/**
 * @module lib
 * What tests elsewhere import: the fixtures, to hand to the catalogue's `createMcpServer` as its
 * `extend` option (`startLocalServer({ server: { extend: registerConformanceFixtures } })`, as the
 * protocol suite and the browser tests do), or with the signed-state check too
 * (`startLocalServer({ server: conformanceServerOptions })`, what `node dist/index.js` serves over HTTP).
 */
export { conformanceServerOptions, registerConformanceFixtures } from './fixtures/index.js';
