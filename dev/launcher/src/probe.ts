/**
 * @module probe
 * Is anything listening at host:port? A TCP connect, nothing more: whatever answers is the
 * agent's to talk to, and the agent names the server it reached in its trace.
 */
import { connect } from 'node:net';

/** Loopback answers in microseconds; a firewall that drops packets must not stall `pnpm ask`. */
export const PROBE_TIMEOUT_MS = 500;

export function isListening(host: string, port: number, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
