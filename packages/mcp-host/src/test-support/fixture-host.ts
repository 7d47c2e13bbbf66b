/**
 * @module test-support/fixture-host
 * `startHttpHost` on 127.0.0.1 and an OS-picked port, serving the fixture server with a silent
 * logger and small defaults; each test overrides what it is about.
 */
import { type HttpHost, type HttpHostOptions, startHttpHost } from '../http/start.js';
import { createSilentLogger } from '../logger.js';
import { createFixtureServer, FIXTURE_INFO } from './fixture-server.js';

export function startFixtureHost(options: Partial<HttpHostOptions> = {}): Promise<HttpHost> {
  return startHttpHost({
    buildServer: createFixtureServer,
    info: FIXTURE_INFO,
    logger: createSilentLogger(),
    stateless: false,
    sessionTtlSeconds: 60,
    maxSessions: 10,
    ...options,
  });
}
