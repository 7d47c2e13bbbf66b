/**
 * @module telemetry/types
 * What the agent asks of telemetry when it is on. Nothing here imports OpenTelemetry: with
 * telemetry off the entry files never load `start.ts`, and the loop and the connections get
 * `undefined` and run exactly as before.
 */
import type { Client, Transport } from '@modelcontextprotocol/client';
import type { ModelDescription, ModelTurn } from '../llm/provider.js';
import type { ServerSpec } from '../mcp/config.js';
import type { TurnResult } from '../trace.js';

/** MCP client spans and `_meta` trace context, for one connection. */
export interface McpClientTracing {
  traceClient(client: Client, spec: ServerSpec): void;
  traceTransport<T extends Transport>(transport: T): T;
}

export interface AgentTelemetry {
  /** Runs one turn inside an `invoke_agent` span; the result names the trace. */
  turn(conversationId: string, run: () => Promise<TurnResult>): Promise<TurnResult>;
  /** Runs one model call inside a `chat {model}` span. */
  chat(model: ModelDescription, run: () => Promise<ModelTurn>): Promise<ModelTurn>;
  mcp: McpClientTracing;
  /** Sends what is buffered; a one-shot CLI calls it before it exits. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}
