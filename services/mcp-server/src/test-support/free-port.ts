/**
 * @module test-support/free-port
 * A loopback port nothing listens on right now, for tests that start a child process on it. One
 * implementation for every package's tests: test-infra's.
 */
export { freePort } from '@mcp-workshop/test-infra';
