/**
 * @module types
 * The shapes the page reads from the agent's HTTP API. They mirror `src/trace.ts` and
 * `src/types.ts`, copied rather than imported so the page's build never pulls in server code.
 */

export interface ToolStart {
  id: string;
  /** Which model turn asked for the call (1-based); calls of one round ran together. */
  round?: number;
  functionName: string;
  server?: string;
  tool?: string;
  /** MCP Apps: the tool's `ui://` view, which the page draws under the call. */
  view?: { uri: string };
  arguments: unknown;
}

export interface ToolProgress {
  id: string;
  progress: number;
  total?: number;
  message?: string;
}

/** A call the server ran as a task (MCP Tasks), as the agent followed it; see `TaskInfo` in `src/types.ts`. */
export interface ToolTask {
  /** The server's task id; the page shows only its start. */
  id: string;
  /** Each status the server reported, in order: e.g. ["working", "completed"]. */
  statuses: string[];
  statusMessage?: string;
  elapsedMs: number;
  polls: number;
  cancel?: { reason: string; acknowledged: boolean };
}

/** `tool_task`: a new status (or status message) of the task a call became. */
export interface ToolTaskEvent {
  id: string;
  task: ToolTask;
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
  /** A call a view made through the page: nothing went to the model. */
  calledBy?: 'view';
  truncated: boolean;
  /** This call's own log notifications (never another call's). */
  logs?: LogEntry[];
  /** The tool's requests for input during the call. */
  inputs?: { message: string; action: string; notAsked?: string }[];
  /** Set when the server ran the call as a task. */
  task?: ToolTask;
}

export interface LogEntry {
  level: string;
  logger?: string;
  data: unknown;
}

/** A server log that came while several calls ran and names none of them. */
export interface ServerLogEntry extends LogEntry {
  server: string;
}

export interface Health {
  model: { label: string; kind: 'demo' | 'openai' | 'custom'; baseUrl: string; model: string; api: string };
  servers: {
    name: string;
    target?: string;
    protocolVersion: string;
    era: string;
    /** The server's own name and version, as it introduced itself. */
    implementation?: { name: string; version: string };
  }[];
  tools: number;
}

/** `GET /api/status`: the agent's start-up, the pending sign-in link, who is signed in. */
export interface AgentStatus {
  state: 'starting' | 'ready' | 'failed';
  signIn?: { server: string; url: string };
  signedIn: { server: string; user: string; kind: 'person' | 'client' }[];
  /** Once ready, the same as `/health`. */
  model?: Health['model'];
  servers?: Health['servers'];
  error?: string;
  /** TRACE_VIEWER_URL: a link template holding `{traceId}`, or null when none is set. */
  traceViewerUrl?: string | null;
  /** The sandbox proxy for tools' views: its port on this host name, or its own origin. */
  viewSandbox?: { port: number; origin: string | null } | null;
}

/** The stream's last event, `done`: the same body as `POST /api/chat`. */
export interface ChatDone {
  answer: string;
  conversationId: string;
  toolCalls?: ToolCallTrace[];
  serverLogs?: ServerLogEntry[];
  /** The turn's OpenTelemetry trace (32 hex digits); null with telemetry off. Checked before use. */
  traceId?: string | null;
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

/** A problem in a dev server's sources (`src/mcp/dev-status.ts`). */
export interface SourceProblem {
  where: string | null;
  message: string;
}

/** A reloading dev server's status, as `GET /api/catalogue/events` sends it in `dev`. */
export interface DevStatus {
  server: string;
  failedSave: SourceProblem | null;
  typeErrors: { count: number; first: SourceProblem[] };
}
