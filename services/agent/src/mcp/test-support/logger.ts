/**
 * @module mcp/test-support/logger
 * Real pino loggers for tests: one that drops everything, one that keeps every line to inspect.
 */
import pino, { type Logger } from 'pino';

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

export interface CapturedLogger {
  logger: Logger;
  /** Every line written so far, parsed (`msg`, `level` as a number, and the bound fields). */
  lines: Array<Record<string, unknown>>;
  /** Called with each line as it is written. */
  onLine?: (line: Record<string, unknown>) => void;
}

export function captureLogger(level: pino.Level = 'debug'): CapturedLogger {
  const captured: CapturedLogger = { lines: [], logger: silentLogger() };
  captured.logger = pino(
    { level },
    {
      write(text: string) {
        const line = JSON.parse(text) as Record<string, unknown>;
        captured.lines.push(line);
        captured.onLine?.(line);
      },
    },
  );
  return captured;
}
