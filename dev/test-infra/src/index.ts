/**
 * @module test-infra
 * Test-only helpers that run real system servers on loopback: a throwaway PostgreSQL cluster and
 * HAProxy. Tests that need them ask `systemPrograms()` first, and skip with one line on a laptop.
 */
export type {
  AnnouncingServer,
  StartAnnouncingServerOptions,
  WaitForAnnouncementOptions,
} from './announced.js';
export {
  ANNOUNCING_LOG_LEVEL,
  announcedMcpUrl,
  MCP_LISTENING_MESSAGE,
  startAnnouncingServer,
  waitForAnnouncedMcpUrl,
} from './announced.js';
export { CHROMIUM_ARGS, CHROMIUM_INSTALL_HINT, CHROMIUM_PATH } from './chromium.js';
export type { StopChildOptions } from './free-port.js';
export { freePort, freePorts, stopChild } from './free-port.js';
export type { HaproxyBackend, RunningHaproxy, StartHaproxyOptions } from './haproxy.js';
export { accepts, HAPROXY_CONFIG_PATH, loopbackConfig, startHaproxy } from './haproxy.js';
export type { Era, JsonRpcMessage, ListenStream } from './mcp-http.js';
export {
  ERAS,
  EraClient,
  LISTEN_WAIT_MS,
  MCP_HEADERS,
  MODERN_META,
  mcpNameHeader,
  mcpNameOf,
  modernMeta,
  openListenStream,
  openRawSession,
  postInitialize,
  postModern,
  postOnSession,
  rawPost,
  readMessages,
  resultIn,
  TASKS_CAPABILITIES,
} from './mcp-http.js';
export type {
  AttributeValue,
  Encoding,
  ReceivedMetric,
  ReceivedMetricPoint,
  ReceivedSpan,
  SpanKindName,
  StatusCodeName,
} from './otlp-proto.js';
export type {
  FormatTraceOptions,
  OtlpReceiver,
  ReceivedRequest,
  StartOtlpReceiverOptions,
  WaitOptions,
} from './otlp-receiver.js';
export { startOtlpReceiver } from './otlp-receiver.js';
export type { PostgresCluster, PostgresOptions } from './postgres.js';
export { startPostgres } from './postgres.js';
export type { NodeRun, RunNodeOptions } from './run-node.js';
export { runNode } from './run-node.js';
export type { SseStream } from './sse.js';
export { openSseStream, parseMcpBody } from './sse.js';
export type { Availability } from './system-binaries.js';
export { findHaproxy, findPostgresBin, skippedSystemTests, systemPrograms } from './system-binaries.js';
export type { TestIssuer } from './test-issuer.js';
export { startTestIssuer } from './test-issuer.js';
