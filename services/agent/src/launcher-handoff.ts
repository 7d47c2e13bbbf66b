/**
 * @module launcher-handoff
 * How `pnpm ask`, `pnpm chat` and `pnpm demo` overlap the agent's start with its services': the
 * launcher (dev/launcher) spawns the CLI with an IPC channel before the MCP server and the demo
 * model are ready, so the CLI's imports run meanwhile. Once it has read its arguments, the CLI says
 * it is waiting; the launcher answers with the variables that say where the services are, and only
 * then does the CLI read its environment and connect. Run without an IPC channel, nothing waits.
 */
// No zod here: the launcher imports this too, before anything else, and zod would delay the agent's start.

/** The launcher waits up to 20 s per service start, three times over for a taken port; then some slack. */
export const HANDOFF_TIMEOUT_MS = 90_000;

/** What the CLI sends the launcher: ready for its environment. */
export const WAITING_MESSAGE = { type: 'mcp-workshop/waiting' } as const;

/** What the launcher sends back once its services are ready. */
export interface StartMessage {
  type: 'mcp-workshop/start';
  /** Set on top of the CLI's own environment, e.g. MCP_SERVER_URL and DEMO_MODEL_URL. */
  env: Record<string, string>;
}

/** A start message, well formed: every variable a string. */
export function isStartMessage(message: unknown): message is StartMessage {
  if (typeof message !== 'object' || message === null) return false;
  const { type, env } = message as { type?: unknown; env?: unknown };
  return (
    type === 'mcp-workshop/start' &&
    typeof env === 'object' &&
    env !== null &&
    !Array.isArray(env) &&
    Object.values(env).every((value) => typeof value === 'string')
  );
}

/** The CLI's waiting message; the launcher answers it. */
export function isWaitingMessage(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { type?: unknown }).type === WAITING_MESSAGE.type
  );
}

/** The part of `process` the handoff uses; a `ChildProcess` is its other end. */
export interface HandoffChannel {
  send?(message: unknown): boolean;
  /** False once the channel has closed (set only while there is one). */
  connected?: boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  once(event: 'disconnect', listener: () => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'disconnect', listener: () => void): unknown;
  disconnect?(): void;
}

/** The launcher went away, or never answered. */
export class HandoffError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * Without an IPC channel (`channel.send` unset): `{}` at once. With one: says it is waiting, and
 * resolves with the variables of the launcher's start message, then closes the channel so it
 * holds nothing open. Rejects when the channel closes first, or after `timeoutMs`.
 */
export function awaitLauncher(
  channel: HandoffChannel,
  timeoutMs = HANDOFF_TIMEOUT_MS,
): Promise<Record<string, string>> {
  const send = channel.send?.bind(channel);
  if (!send) return Promise.resolve({});
  if (channel.connected === false) return Promise.reject(wentAway());
  return new Promise((resolve, reject) => {
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      channel.off('message', onMessage);
      channel.off('disconnect', onDisconnect);
      outcome();
    };
    const onMessage = (message: unknown) => {
      if (!isStartMessage(message)) return;
      finish(() => resolve({ ...message.env }));
      channel.disconnect?.();
    };
    const onDisconnect = () => finish(() => reject(wentAway()));
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(new HandoffError(`the launcher sent no start message within ${timeoutMs / 1000} s`)),
        ),
      timeoutMs,
    );
    channel.on('message', onMessage);
    channel.once('disconnect', onDisconnect);
    send(WAITING_MESSAGE);
  });
}

function wentAway(): HandoffError {
  return new HandoffError('the launcher went away before its services were ready');
}
