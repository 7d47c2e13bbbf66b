/**
 * @module test-support/mcp
 * Connects the official MCP client to a fresh `McpServer` holding only what an exercise registers,
 * over the SDK's in-process transport: the same validation and wire shapes as a real client.
 */
import { connectInProcess, type InProcessConnection } from '@mcp-workshop/mcp-host/in-process';
import type { RegisterContext } from '@mcp-workshop/mcp-host/kit';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import type { ToolDeps, WorkshopTool } from '@mcp-workshop/mcp-server';
import { Client } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';

export type Connected = InProcessConnection;

/** Deps for exercise tools: a silent logger and a fixed clock; anything else fails loudly. */
export function exerciseDeps(): ToolDeps {
  const unset = (what: string) =>
    new Proxy({} as never, {
      get() {
        throw new Error(`The exercises provide no deps.${what}; your tool should not need it.`);
      },
    });
  return {
    weather: unset('weather'),
    todos: unset('todos'),
    todoEvents: unset('todoEvents'),
    now: () => new Date('2026-07-28T12:00:00Z'),
    logger: createSilentLogger(),
  };
}

/** What a tool's `register` gets around `exerciseDeps()`: no MCP Tasks runtime. */
export function exerciseContext(deps: ToolDeps = exerciseDeps()): RegisterContext<ToolDeps> {
  return { deps, logger: deps.logger, runs: undefined };
}

/** A server with whatever `register` adds, and a client connected to it. Always `await close()`. */
export async function connect(register: (server: McpServer) => void): Promise<Connected> {
  const server = new McpServer({ name: 'exercise', version: '0.0.0' });
  register(server);
  return connectInProcess(server, new Client({ name: 'exercise-check', version: '0.0.0' }));
}

/** A server with these workshop tools (built with `defineTool`), and a client connected to it. */
export function connectTools(...tools: WorkshopTool[]): Promise<Connected> {
  const context = exerciseContext();
  return connect((server) => {
    for (const tool of tools) tool.register(server, context);
  });
}

/** The text of a result's first text block, or '' when it has none. */
export function firstText(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content)
    ? (result.content as Array<{ type?: string; text?: string }>)
    : [];
  return blocks.find((block) => block.type === 'text')?.text ?? '';
}
