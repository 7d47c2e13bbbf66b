/**
 * @module free-port
 * The free loopback port and the child stopper for tests that start a child process. They are
 * re-exported from `@mcp-workshop/shared/processes`, the one copy: shipped code (the launcher,
 * the auth server's `process` export) needs them at run time and must not import this test package.
 */

export type { StopChildOptions } from '@mcp-workshop/shared/processes';
export { freePort, freePorts, stopChild } from '@mcp-workshop/shared/processes';
