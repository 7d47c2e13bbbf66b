#!/usr/bin/env node
/**
 * @module cli
 * `pnpm ask`, `pnpm chat`, `pnpm demo` and `pnpm eval`: starts the agent's own CLI as a child process at once
 * (`agent-process.ts`), and meanwhile whichever of the MCP server and the offline demo model isn't
 * running (`launch.ts`); then tells the agent where they are, and stops what it started when the
 * agent exits. The agent itself never starts a service.
 *
 *   node dev/launcher/dist/cli.js ask [--json] "question"
 *   node dev/launcher/dist/cli.js chat
 *   node dev/launcher/dist/cli.js demo
 *   node dev/launcher/dist/cli.js eval [--lint] [--json] …
 */
import { dirname, join } from 'node:path';
import { spawnAgent } from './agent-process.js';
import type { Launched } from './launch.js';
import type { Command } from './plan.js';
import { AGENT_PACKAGE, entryOf } from './services.js';

const COMMANDS: ReadonlySet<string> = new Set(['ask', 'chat', 'demo', 'eval']);
/** Commands whose agent entry is its own file beside the CLI, given only the arguments after the command. */
const OWN_ENTRY: ReadonlySet<string> = new Set(['demo', 'eval']);

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || !COMMANDS.has(command)) {
    console.error('Usage: launcher ask [--json] "question" | chat | demo | eval [--lint] [--json]');
    return 2;
  }
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  const agentCli = entryOf(AGENT_PACKAGE);
  const script = OWN_ENTRY.has(command) ? join(dirname(agentCli), `${command}.js`) : agentCli;
  const agentEnv = { ...process.env };
  if (command === 'demo') delete agentEnv.MCP_SERVERS_CONFIG;
  // First: its imports run on the other core while this process validates the environment and
  // the services start, and it waits (over IPC) for their URLs before it connects.
  const agent = spawnAgent(script, OWN_ENTRY.has(command) ? rest : [command, ...rest], agentEnv);

  let launched: Launched;
  try {
    // The agent's CLI answers --help itself; nothing needs to be started for that.
    launched = wantsHelp
      ? { agentEnv: {}, notes: [], warnings: [], stop: async () => undefined }
      : await launchServices(command === 'eval' && rest.includes('--lint') ? 'lint' : (command as Command));
  } catch (error) {
    await agent.stop();
    throw error;
  }
  // With --json, stdout carries exactly one JSON object, so the notes go to stderr.
  const print = rest.includes('--json') ? console.error : console.log;
  for (const note of launched.notes) print(`note:   ${note}`);
  for (const warning of launched.warnings) console.error(`WARNING: ${warning}`);

  // Ctrl-C reaches the agent too (same process group); wait for it to finish, then clean up.
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  try {
    agent.start(launched.agentEnv);
    return await agent.exited;
  } finally {
    await launched.stop();
  }
}

/** Loaded only once the agent is spawned: validating the environment loads zod, and the agent need not wait for that. */
async function launchServices(command: Command): Promise<Launched> {
  const [{ loadLauncherEnv }, { launch }] = await Promise.all([import('./env.js'), import('./launch.js')]);
  return launch(command, loadLauncherEnv(), process.env);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // An EnvError too: its message names every bad variable.
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
