/**
 * @module logger
 * Structured logs to stderr, never stdout: over stdio, stdout carries the MCP protocol and a
 * stray log line would corrupt it.
 */
import pino from 'pino';

export type Logger = pino.Logger;
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface LoggerOptions {
  /** The `service` field of every line, so lines of several servers in one stream can be told apart. */
  service?: string;
  /** With telemetry on: the active span's `trace_id` and `span_id` on each line, so a line leads to its trace. */
  fields?: () => Record<string, string>;
}

/** A logger that writes JSON lines to file descriptor 2 (stderr). */
export function createLogger(level: LogLevel = 'info', options: LoggerOptions = {}): Logger {
  const { service = 'mcp-server', fields } = options;
  return pino(
    { level, base: { service }, ...(fields && { mixin: fields }) },
    pino.destination({ fd: 2, sync: true }),
  );
}

/** A logger that drops everything, for tests that don't look at logs. */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
