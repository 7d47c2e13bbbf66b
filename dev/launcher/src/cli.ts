#!/usr/bin/env node
/**
 * @module cli
 * `pnpm ask`, `pnpm chat` and `pnpm demo`: starts whichever of the MCP server and the offline demo
 * model isn't running (`launch.ts`), runs the agent's own CLI against them as a child process,
 * and stops what it started when the agent exits. The agent itself never starts a service.
 *
 *   node dev/launcher/dist/cli.js ask [--json] "question"
 *   node dev/launcher/dist/cli.js chat
 *   node dev/launcher/dist/cli.js demo
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { EnvError, loadLauncherEnv } from './env.js';
import { launch } from './launch.js';
import type { Command } from './plan.js';
import { AGENT_PACKAGE, entryOf } from './services.js';

const COMMANDS: ReadonlySet<string> = new Set(['ask', 'chat', 'demo']);

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || !COMMANDS.has(command)) {
    console.error('Usage: launcher ask [--json] "question" | chat | demo');
    return 2;
  }
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  const agentCli = entryOf(AGENT_PACKAGE);
  // The agent's CLI answers --help itself; nothing needs to be started for that.
  const launched = wantsHelp
    ? { agentEnv: {}, notes: [], stop: async () => undefined }
    : await launch(command as Command, loadLauncherEnv(), process.env);
  // With --json, stdout carries exactly one JSON object, so the notes go to stderr.
  const print = rest.includes('--json') ? console.error : console.log;
  for (const note of launched.notes) print(`note:   ${note}`);

  // Ctrl-C reaches the agent too (same process group); wait for it to finish, then clean up.
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  try {
    const script = command === 'demo' ? join(dirname(agentCli), 'demo.js') : agentCli;
    const args = command === 'demo' ? rest : [command, ...rest];
    const env = { ...process.env, ...launched.agentEnv };
    if (command === 'demo') delete env.MCP_SERVERS_CONFIG;
    const child = spawn(process.execPath, [script, ...args], { env, stdio: 'inherit' });
    return await new Promise<number>((resolve) => {
      child.once('exit', (code, signal) => resolve(code ?? (signal ? 130 : 1)));
      child.once('error', (error) => {
        console.error(`could not run the agent: ${error.message}`);
        resolve(1);
      });
    });
  } finally {
    await launched.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof EnvError || error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
