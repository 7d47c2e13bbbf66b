#!/usr/bin/env node
/**
 * @module cli
 * `pnpm ask "question"` (one shot, `--json` for machine-readable output) and `pnpm chat` (a REPL
 * with streamed answers, `chat.ts`; typed or piped lines, `line-reader.ts`). Both print a trace of
 * every tool call, including exactly what was sent to the model. An entry file: it reads the
 * environment and talks to the terminal. Run by the launcher, it first waits for the services
 * (`launcher-handoff.ts`).
 */
import { parseArgs } from 'node:util';
import { runChat } from './chat.js';
import { EnvError, loadAgentEnvWith } from './env.js';
import { formatHeader, formatTaskUpdate, formatToolCall, formatTurn, turnAsJson } from './format.js';
import { declineInput } from './input.js';
import { createInterrupter } from './interrupt.js';
import { awaitLauncher } from './launcher-handoff.js';
import { createLineReader } from './line-reader.js';
import { createLogger } from './logger.js';
import { startRuntime } from './runtime.js';
import { terminalInput } from './terminal-input.js';
import type { ToolCallTrace } from './trace.js';

/** The shell's exit status for a program stopped by Ctrl-C (128 + SIGINT). */
const INTERRUPTED_EXIT_CODE = 130;

const USAGE = `Usage:
  pnpm ask [--json] "your question"   one question, with a trace of every tool call
  pnpm chat                            a conversation; type /new to start over, /exit to quit.
                                       Piped lines are answered in order; the chat ends at EOF.

With no OPENAI_API_KEY and no OPENAI_BASE_URL, the offline demo model at DEMO_MODEL_URL answers
(a scripted stand-in, not a language model). The MCP server is MCP_SERVER_URL
(default http://127.0.0.1:3000/mcp). From the repository root, \`pnpm ask\` and \`pnpm chat\` start
whichever of the two is not running.`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...words] = positionals;
  if (values.help || (command !== 'ask' && command !== 'chat')) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const question = words.join(' ').trim();
  if (command === 'ask' && !question) {
    console.error('Ask something, e.g.: pnpm ask "What is the weather in Oslo?"');
    return 2;
  }
  // Started by the launcher before its services were ready: wait for where they are.
  const env = loadAgentEnvWith(await awaitLauncher(process));
  const logger = createLogger(env.LOG_LEVEL);

  if (command === 'ask') {
    const runtime = await startRuntime({
      env,
      logger,
      onInput: declineInput,
      connectAttempts: 1,
      onSignIn: showSignInLink,
    });
    // Ctrl-C stops the question, and the hub cancels any task it waits on; a second one exits at once.
    const interrupter = createInterrupter(() => process.exit(INTERRUPTED_EXIT_CODE));
    const onSigint = () => interrupter.interrupt();
    process.on('SIGINT', onSigint);
    const ended: ToolCallTrace[] = [];
    try {
      if (!values.json) {
        console.log(formatHeader(runtime.model.description, runtime.hub.servers()));
        console.log(`\nquestion: ${question}`);
      }
      const signal = interrupter.begin();
      const announced = new Set<string>();
      const result = await runtime.agent
        .ask(question, {
          signal,
          events: {
            // The trace prints at the end; a task may take a while, so its statuses show as they come.
            ...(!values.json && {
              onToolTask: (_id, task) => {
                const hint = announced.has(task.id) ? '' : '  (Ctrl-C cancels it)';
                announced.add(task.id);
                console.log(`${formatTaskUpdate(task)}${hint}`);
              },
            }),
            onToolEnd: (trace) => ended.push(trace),
          },
        })
        .catch((error: unknown) => {
          if (signal.aborted) return undefined;
          throw error;
        });
      if (!result) {
        // What ran before Ctrl-C, with each task's tasks/cancel; --json keeps stdout for a whole turn only.
        if (!values.json)
          for (const [index, trace] of ended.entries()) console.log(formatToolCall(trace, index));
        console.error('Cancelled with Ctrl-C.');
        return INTERRUPTED_EXIT_CODE;
      }
      console.log(
        values.json
          ? turnAsJson(result, runtime.model.description, runtime.hub.servers())
          : formatTurn(result),
      );
      return 0;
    } finally {
      process.off('SIGINT', onSigint);
      await runtime.close();
    }
  }

  // Ctrl-C stops the running answer (and its tasks); at the prompt it ends the chat, as /exit does.
  // Before the chat starts, or pressed twice, it exits at once.
  let chatting = false;
  const interrupter = createInterrupter((stopping) => {
    if (stopping || !chatting) process.exit(INTERRUPTED_EXIT_CODE);
    lines.close();
  });
  // Reading starts now, so a line typed or piped in while the servers connect is answered too.
  const lines = createLineReader({
    input: process.stdin,
    output: process.stdout,
    terminal: Boolean(process.stdin.isTTY && process.stdout.isTTY),
    onInterrupt: () => interrupter.interrupt(),
  });
  process.on('SIGINT', () => interrupter.interrupt());
  try {
    const runtime = await startRuntime({
      env,
      logger,
      onInput: terminalInput(lines, console.log),
      connectAttempts: 1,
      onSignIn: showSignInLink,
    });
    try {
      console.log(formatHeader(runtime.model.description, runtime.hub.servers()));
      console.log('Type a question. /new starts a new conversation, /exit quits.\n');
      chatting = true;
      await runChat({
        agent: runtime.agent,
        lines,
        write: (text) => process.stdout.write(text),
        interrupter,
      });
      return 0;
    } finally {
      await runtime.close();
    }
  } finally {
    lines.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof EnvError || error instanceof Error ? error.message : error);
    process.exit(1);
  },
);

/** On stderr, so `ask --json` keeps stdout for its one JSON object. */
function showSignInLink({ server, url }: { server: string; url: string }): void {
  console.error(
    `sign in: the MCP server "${server}" needs you to sign in. Open this link in a browser:\n  ${url}`,
  );
}
