/**
 * @module types
 * The shapes the page reads from the agent's HTTP API. They mirror `src/trace.ts` and
 * `src/types.ts`, copied rather than imported so the page's build never pulls in server code.
 */

export interface ToolStart {
  id: string;
  functionName: string;
  server?: string;
  tool?: string;
  arguments: unknown;
}

export interface ToolProgress {
  id: string;
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolCallTrace extends ToolStart {
  durationMs: number;
  isError: boolean;
  problem?: { kind: string; message: string; problems?: string[] };
  result?: {
    isError: boolean;
    structuredContent?: unknown;
    text: string[];
    otherContent: string[];
    /** Images the agent kept for display: PNG, JPEG, GIF or WebP only, already size-checked. */
    media?: { type: 'image'; mimeType: string; data: string }[];
  };
  sentToModel: string;
  sentAs: string;
  truncated: boolean;
}

export interface Health {
  model: { label: string; kind: 'demo' | 'openai' | 'custom'; baseUrl: string; model: string; api: string };
  servers: { name: string; protocolVersion: string; era: string }[];
  tools: number;
}

export interface Tool {
  server: string;
  name: string;
  qualifiedName?: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
}

/** A tool asks the person for input (MCP elicitation); answer at `POST /api/input/:id`. */
export interface InputRequestEvent {
  id: string;
  server: string;
  message: string;
  schema: { type?: string; properties?: Record<string, unknown>; required?: unknown };
}
