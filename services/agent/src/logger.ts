/**
 * @module logger
 * Structured logs to stderr, so stdout stays for answers and `--json` output.
 */
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'agent' } }, pino.destination({ fd: 2, sync: true }));
}

export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
