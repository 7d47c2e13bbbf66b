/**
 * @module test-support/silent-logger
 * A logger that drops everything, for tests that don't look at logs.
 */
import pino from 'pino';
import type { Logger } from '../logger.js';

export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
