/**
 * @module logger
 * The logger the stores and the relay write to: pino's, handed in by whoever opens them (the host's
 * `createLogger`, or a silent one in tests). Only its type lives here; the stores print nothing themselves.
 */
import type pino from 'pino';

export type Logger = pino.Logger;
