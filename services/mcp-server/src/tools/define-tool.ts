/**
 * @module tools/define-tool
 * The one way a workshop tool is declared. `defineTool` checks at compile time that a tool only
 * returns `ok(...)` data matching its `output` schema or a `fail(...)`, and `register` wraps the
 * handler so an unexpected exception becomes a safe `isError` result instead of leaking a stack.
 */
import { type CallToolResult, failFromError, type StructuredToolResult } from '@mcp-workshop/shared';
import type { McpServer, ServerContext, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { ToolDeps } from './deps.js';

/** What a tool handler gets besides its arguments. */
export interface ToolContext {
  deps: ToolDeps;
  /** Aborted when the client cancels the call or goes away; pass it to anything slow. */
  signal: AbortSignal;
  /** The SDK's per-request context (progress, logging, elicitation). */
  mcp: ServerContext;
}

/** A failure result, as `fail()` builds it. */
export type FailResult = CallToolResult & { isError: true };

export interface ToolSpec<Input extends z.ZodObject, Output extends z.ZodObject> {
  /** snake_case, unique, `[A-Za-z0-9_.-]{1,128}`. */
  name: string;
  /** A short human label for client UIs. */
  title: string;
  /** Written for the model: what the tool does, when to use it, what it returns. */
  description: string;
  input: Input;
  /** Root must be an object: `structuredContent` is always a JSON object. */
  output: Output;
  annotations: ToolAnnotations;
  run(
    args: z.output<Input>,
    context: ToolContext,
  ): Promise<StructuredToolResult<z.input<Output>> | FailResult>;
}

/** A tool ready to be added to a server. Generic types are erased so tools can live in one list. */
export interface WorkshopTool {
  readonly name: string;
  register(server: McpServer, deps: ToolDeps): void;
}

export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  spec: ToolSpec<Input, Output>,
): WorkshopTool {
  return {
    name: spec.name,
    register(server, deps) {
      server.registerTool(
        spec.name,
        {
          title: spec.title,
          description: spec.description,
          // Widened to the base type so the SDK's conditional callback type resolves; `run` keeps the precise one.
          inputSchema: spec.input as z.ZodObject,
          outputSchema: spec.output as z.ZodObject,
          annotations: { title: spec.title, ...spec.annotations },
        },
        async (args: unknown, mcp: ServerContext): Promise<CallToolResult> => {
          try {
            return await spec.run(args as z.output<Input>, { deps, signal: mcp.mcpReq.signal, mcp });
          } catch (error) {
            const { result, ref } = failFromError(error);
            if (ref)
              deps.logger.error({ err: error, tool: spec.name, ref }, 'tool threw an unexpected error');
            return result;
          }
        },
      );
    },
  };
}
