/**
 * @module demo
 * The agent's half of `pnpm demo`: asks a few questions that show a structured result, a list, an
 * error the model recovers from, and a write; prints every trace; and exits 0. The launcher
 * (dev/launcher) starts the MCP server with a throw-away task database, and the offline demo
 * model when no model is configured, then runs this with MCP_SERVER_URL pointing at that server.
 */
import { loadAgentEnvWith } from './env.js';
import { formatHeader, formatTurn } from './format.js';
import { declineInput } from './input.js';
import { awaitLauncher } from './launcher-handoff.js';
import { createLogger } from './logger.js';
import { startRuntime } from './runtime.js';

export const DEMO_QUESTIONS = [
  { shows: 'a structured result', question: "What's the weather in Oslo?" },
  { shows: 'a list, wrapped in an object', question: 'List the cities in Norway' },
  { shows: 'an isError result the model recovers from', question: "What's the weather like in Osloo?" },
  { shows: 'a task being written to the database', question: 'Add a task: "Pack an umbrella for Bergen"' },
  { shows: 'arithmetic without eval', question: 'Calculate (2 + 3) * 4 ^ 2' },
];

async function main(): Promise<void> {
  // The launcher starts this before the server is ready, and says where it is once it is.
  const env = loadAgentEnvWith(await awaitLauncher(process));
  const logger = createLogger('warn');
  const runtime = await startRuntime({ env, logger, onInput: declineInput, connectAttempts: 3 });
  try {
    console.log('MCP workshop demo: the agent, the MCP server and the model, on this machine.\n');
    console.log(formatHeader(runtime.model.description, runtime.hub.servers()));
    for (const [index, { shows, question }] of DEMO_QUESTIONS.entries()) {
      console.log(`\n━━ ${index + 1}/${DEMO_QUESTIONS.length}: ${shows}`);
      console.log(`question: ${question}`);
      const result = await runtime.agent.ask(question);
      console.log(formatTurn(result));
    }
    console.log(
      '\nNext: `pnpm ask "your question"`, `pnpm chat`, or `pnpm start` for the HTTP API on port 3001.',
    );
  } finally {
    await runtime.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
