/**
 * @module types
 * The seams between the agent's parts: the MCP side (`mcp/`), the model side (`llm/`) and the
 * loop (`loop.ts`) only meet through these types, so each can be tested on its own.
 */
import type { CallToolResult } from '@mcp-workshop/shared';

/** A JSON Schema object as MCP sends it (`inputSchema`, `outputSchema`). */
export type JsonSchema = Record<string, unknown>;

/** Who may call a tool under MCP Apps (`_meta.ui.visibility`): the model, its view, or both. */
export type ToolVisibility = 'model' | 'app';

/** A tool's MCP Apps settings (`_meta.ui`), as `views/ui-meta.ts` read and checked them. */
export interface ToolUi {
  /** The `ui://` resource that draws this tool's results, when it has one. */
  resourceUri?: string;
  /** Who may call it; the spec's default, when the tool says nothing, is both. */
  visibility: readonly ToolVisibility[];
}

/** A tool as discovered on one MCP server. */
export interface DiscoveredTool {
  /** The configured name of the server it came from (e.g. "workshop"). */
  server: string;
  /** The tool's name on that server, exactly as MCP gave it (may contain dots, up to 128 chars). */
  name: string;
  /**
   * Unique across all connected servers: `name`, or `<server>__<name>` when several servers offer
   * that name. Set by the hub; display it, and derive the model's function name from it.
   */
  qualifiedName?: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: Record<string, unknown>;
  /** MCP Apps: its view and who may call it; absent when the tool says nothing of either. */
  ui?: ToolUi;
}

/** A progress notification received during a call. */
export interface ProgressEvent {
  progress: number;
  total?: number;
  message?: string;
  atMs: number;
}

/** A log notification (`notifications/message`) received while a call ran. */
export interface LogEvent {
  level: string;
  logger?: string;
  data: unknown;
  atMs: number;
}

/**
 * A log notification that could not be tied to one call: it came on no call's own stream (a 2025
 * server's session-wide GET stream, or stdio) while several calls ran on that server.
 */
export interface ServerLogMessage {
  server: string;
  level: string;
  logger?: string;
  data: unknown;
}

/** A tool's request for input (elicitation) during a call, and what the tool was told. */
export interface InputEvent {
  /** The question, as the server worded it. */
  message: string;
  action: InputAnswer['action'];
  /** Set when nobody was asked (one-shot `ask`, say): why, worded for the person. */
  notAsked?: string;
  /** When the answer went back, in ms since the call started. */
  atMs: number;
}

/** Why a call produced no result. Each kind still reaches the model as a tool error. */
export type CallFailure =
  | { kind: 'jsonrpc'; code: number; message: string }
  | { kind: 'timeout'; message: string }
  | { kind: 'aborted'; message: string }
  | { kind: 'transport'; message: string }
  /** The server refused the call for the agent's sign-in (HTTP 403 insufficient_scope, and no step-up got the scope). */
  | { kind: 'not_allowed'; message: string };

/** A task's status (MCP Tasks, `io.modelcontextprotocol/tasks`); the last three are final. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A call the server ran as a task: what the agent saw of it while it waited (`mcp/task-wait.ts`). */
export interface TaskInfo {
  /** The server's task id. Whoever holds it may read the task, so only full in `--json` and the API. */
  id: string;
  /** Each status the server reported, in order, a repeat of the previous one left out. */
  statuses: TaskStatus[];
  /** What the server last said of it (`statusMessage`), e.g. "Section 3 of 5"; none once it says nothing. */
  statusMessage?: string;
  /** From the server's answer that made the task until the agent stopped following it. */
  elapsedMs: number;
  /** How many `tasks/get` requests the agent sent. */
  polls: number;
  /** Set when the agent sent `tasks/cancel`: why, and whether the server acknowledged it. */
  cancel?: { reason: 'aborted' | 'timeout' | 'error'; acknowledged: boolean };
}

/** What one `tools/call` produced: a result, or a failure that is not a result. */
export interface CallOutcome {
  result?: CallToolResult;
  failure?: CallFailure;
  durationMs: number;
  progress: ProgressEvent[];
  logs: LogEvent[];
  inputs: InputEvent[];
  /** Set when the server answered with a task, which the hub then followed to its end. */
  task?: TaskInfo;
}

export interface CallOptions {
  /** Overall limit for the call; every progress notification restarts the clock. */
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  onLog?: (event: LogEvent) => void;
  /**
   * Hears the server logs that cannot be tied to one call. The calls of one turn pass the same
   * function, and it hears each such log once, however many of them were running.
   */
  onServerLog?: (event: ServerLogMessage) => void;
  /** Hears each new status (or status message) of a task the call became. */
  onTask?: (task: TaskInfo) => void;
}

/** A connected MCP server, as the trace and the web page show it. */
export interface ServerInfo {
  name: string;
  /** URL or command line. */
  target: string;
  protocolVersion: string;
  era: 'modern' | 'legacy';
  /** The server's own name and version, as it reported them. */
  implementation?: { name: string; version: string };
  /** The server's usage guide for the model (`instructions`); worth putting in the system prompt. */
  instructions?: string;
  /** Who the agent signed in as, for a server with an `oauth` entry. Never a token. */
  signedInAs?: SignedInAs;
  /** The skills it publishes (`io.modelcontextprotocol/skills`); absent when it declares none. */
  skills?: SkillSummary[];
}

/** A skill as a server lists it: what the person sees, and the model is told, before it is read. */
export interface SkillSummary {
  /** Its name, e.g. "add-a-tool": the last folder of its URI. */
  name: string;
  /** When to use it, in the server's words. */
  description: string;
  /** Its `SKILL.md`, e.g. `skill://add-a-tool/SKILL.md`. */
  uri: string;
}

/** A skill, with the server it comes from and its files. */
export interface ServerSkill extends SkillSummary {
  server: string;
  /** Its files as paths inside its folder, as listed: `SKILL.md`, `references/checklist.md`. */
  files: string[];
}

/** A skill file as read and verified, for the model. */
export interface SkillText {
  /** The URI it was read from. */
  uri: string;
  text: string;
}

/** A person (their `sub`, authorization code with PKCE) or a machine (its client id, client credentials). */
export interface SignedInAs {
  user: string;
  kind: 'person' | 'client';
}

/** What the person is asked when a tool requests input (elicitation). */
export interface InputRequest {
  server: string;
  message: string;
  /** The flat JSON Schema of the form (`requestedSchema`). */
  schema: JsonSchema;
}

export type InputAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | {
      action: 'decline';
      /** Set when nobody was asked (one-shot `ask` has no one to ask): why, worded for the person. */
      notAsked?: string;
    }
  | { action: 'cancel' };

/** How a tool's request for input reaches a person: REPL prompt, web form, or a refusal in one-shot mode. */
export type InputHandler = (request: InputRequest) => Promise<InputAnswer>;

/** Every MCP server the agent is connected to, behind one interface. */
export interface McpHub {
  /** The tool set the next model turn sees. It only changes in `refresh()`. */
  tools(): readonly DiscoveredTool[];
  /** Swaps in a new tool set if any server sent `notifications/tools/list_changed`; call between model turns. */
  refresh(): Promise<boolean>;
  callTool(
    server: string,
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallOutcome>;
  servers(): readonly ServerInfo[];
  /**
   * A tool of `server` that a view may call (its visibility holds "app"), found by its exact name;
   * undefined for any other name, a model-only tool included.
   */
  appTool(server: string, name: string): DiscoveredTool | undefined;
  /** Whether one of `server`'s tools names `uri` (exactly) as its view. */
  hasView(server: string, uri: string): boolean;
  /** Reads a view `hasView` knows, through the server's connection; throws `ViewError` otherwise. */
  readView(server: string, uri: string, signal?: AbortSignal): Promise<ViewResource>;
  /** Every skill of every server, as listed when it connected. */
  skills(): readonly ServerSkill[];
  /**
   * Reads a file of a skill `skills()` lists (`file` inside its folder, default `SKILL.md`), checked
   * against the digest its listing published. Rejects, with a message for the model, otherwise.
   */
  readSkill(server: string, uri: string, file: string | undefined, signal?: AbortSignal): Promise<SkillText>;
  close(): Promise<void>;
}

/** The outside origins a view declared (`_meta.ui.csp`), each checked by `views/csp.ts`. */
export interface ViewCsp {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

/** A view's HTML and how it asked to be shown. */
export interface ViewResource {
  server: string;
  uri: string;
  html: string;
  csp: ViewCsp;
  /** The view's wish for a visible border; the host decides. */
  prefersBorder?: boolean;
}
