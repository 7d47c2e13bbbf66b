#!/usr/bin/env node
/**
 * @module cli
 * `pnpm ask "question"` (one shot, `--json` for machine-readable output) and `pnpm chat` (a REPL
 * with streamed answers). Both print a trace of every tool call, including exactly what was sent
 * to the model. An entry file: it reads the environment and talks to the terminal.
 */
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { EnvError, loadAgentEnv } from './env.js';
import { formatHeader, formatServerLog, formatToolCall, formatTurn, turnAsJson } from './format.js';
import { declineInput, terminalInput } from './input.js';
import { createLogger } from './logger.js';
import { startRuntime } from './runtime.js';

const USAGE = `Usage:
  pnpm ask [--json] "your question"   one question, with a trace of every tool call
  pnpm chat                            a conversation; type /new to start over, /exit to quit

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
  const env = loadAgentEnv();
  const logger = createLogger(env.LOG_LEVEL);

  if (command === 'ask') {
    const question = words.join(' ').trim();
    if (!question) {
      console.error('Ask something, e.g.: pnpm ask "What is the weather in Oslo?"');
      return 2;
    }
    const runtime = await startRuntime({
      env,
      logger,
      onInput: declineInput,
      connectAttempts: 1,
      onSignIn: showSignInLink,
    });
    try {
      if (!values.json) {
        console.log(formatHeader(runtime.model.description, runtime.hub.servers()));
        console.log(`\nquestion: ${question}`);
      }
      const result = await runtime.agent.ask(question);
      console.log(
        values.json
          ? turnAsJson(result, runtime.model.description, runtime.hub.servers())
          : formatTurn(result),
      );
      return 0;
    } finally {
      await runtime.close();
    }
  }

  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const runtime = await startRuntime({
    env,
    logger,
    onInput: terminalInput(rl, console.log),
    connectAttempts: 1,
    onSignIn: showSignInLink,
  });
  try {
    console.log(formatHeader(runtime.model.description, runtime.hub.servers()));
    console.log('Type a question. /new starts a new conversation, /exit quits.\n');
    let conversationId: string | undefined;
    let calls = 0;
    for (;;) {
      const line = (await rl.question('you> ').catch(() => '/exit')).trim();
      if (line === '/exit' || line === '/quit') break;
      if (line === '/new') {
        conversationId = undefined;
        console.log('(new conversation)');
        continue;
      }
      if (!line) continue;
      process.stdout.write('assistant> ');
      let streamed = false;
      const result = await runtime.agent
        .ask(line, {
          conversationId,
          events: {
            onTextDelta: (delta) => {
              streamed = true;
              process.stdout.write(delta);
            },
            onToolEnd: (trace) => {
              process.stdout.write(`\n${formatToolCall(trace, calls++)}\nassistant> `);
            },
          },
        })
        .catch((error: unknown) => {
          console.log(`\n${error instanceof Error ? error.message : String(error)}`);
          return undefined;
        });
      if (!result) continue;
      conversationId = result.conversationId;
      if (!streamed || result.stoppedBecause === 'max_rounds') process.stdout.write(result.answer);
      // Logs the server sent during the turn that belong to no single call (2025 sessions, stdio).
      for (const log of result.serverLogs) process.stdout.write(`\n${formatServerLog(log)}`);
      process.stdout.write('\n\n');
    }
    return 0;
  } finally {
    rl.close();
    await runtime.close();
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
