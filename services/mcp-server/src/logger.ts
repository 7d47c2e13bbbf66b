/**
 * @module logger
 * Structured logs to stderr, never stdout: over stdio, stdout carries the MCP protocol and a
 * stray log line would corrupt it.
 */
import pino from 'pino';

export type Logger = pino.Logger;
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A logger that writes JSON lines to file descriptor 2 (stderr). With telemetry on, `fields` adds
 * the active span's `trace_id` and `span_id` to each line, so a log line leads to its trace.
 */
export function createLogger(level: LogLevel = 'info', fields?: () => Record<string, string>): Logger {
  return pino(
    { level, base: { service: 'mcp-server' }, ...(fields && { mixin: fields }) },
    pino.destination({ fd: 2, sync: true }),
  );
}

/** A logger that drops everything, for tests that don't look at logs. */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
