/**
 * @module agent-process
 * Runs the agent's CLI as its own process from the launcher's first moment, so its imports overlap
 * the services' start, and hands it where the services are once they are ready: the launcher's
 * half of the agent's `launcher-handoff.ts`. The agent reads its environment and connects only
 * after that, and prints nothing before it, so the launcher's notes still come first.
 */
import { spawn } from 'node:child_process';
import { isWaitingMessage, type StartMessage } from '@mcp-workshop/agent/launcher-handoff';
import { stopChild } from '@mcp-workshop/shared/processes';

/** The exit code for an agent ended by a signal, as a shell reports Ctrl-C. */
export const SIGNAL_EXIT_CODE = 130;

export interface AgentProcess {
  /** Sends the agent these variables once it asks for them (at once if it already has). */
  start(env: Record<string, string>): void;
  /** Its exit code once it has exited: 130 after a signal, 1 when it could not run at all. */
  readonly exited: Promise<number>;
  /** Stops it (SIGTERM); before `start` it has printed nothing. Resolves once it has exited. */
  stop(): Promise<void>;
}

/** Spawns `node script ...args` with `env`, its stdio this terminal's, plus an IPC channel. */
export function spawnAgent(script: string, args: readonly string[], env: NodeJS.ProcessEnv): AgentProcess {
  const child = spawn(process.execPath, [script, ...args], {
    env,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  let asked = false;
  let answer: StartMessage | undefined;
  const deliver = () => {
    if (!asked || !answer || !child.connected) return;
    // A failed send closes the channel, and the agent then exits saying the launcher went away.
    child.send(answer, () => undefined);
    answer = undefined;
  };
  child.on('message', (message: unknown) => {
    if (isWaitingMessage(message)) {
      asked = true;
      deliver();
    }
  });
  const exited = new Promise<number>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? SIGNAL_EXIT_CODE : 1)));
    // Only a failed spawn ends it here; no 'exit' follows that one.
    child.on('error', (error) => {
      if (child.pid !== undefined) return;
      console.error(`could not run the agent: ${error.message}`);
      resolve(1);
    });
  });
  return {
    start(vars) {
      answer = { type: 'mcp-workshop/start', env: vars };
      deliver();
    },
    exited,
    stop: () => (child.pid === undefined ? Promise.resolve() : stopChild(child)),
  };
}
