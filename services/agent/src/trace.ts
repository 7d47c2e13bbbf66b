/**
 * @module trace
 * What the agent records about each tool call: enough to see which tool the model chose, what
 * the server returned (`content` versus `structuredContent`, `isError`), and exactly what went
 * back to the model. The CLI prints it, the HTTP API returns it, the web page draws it.
 */
import type { ModelView } from '@mcp-workshop/shared';
import type { InputEvent, LogEvent, ProgressEvent, ServerLogMessage, TaskInfo } from './types.js';

/**
 * Largest base64 string kept per image for the trace: about 220 KB decoded. The trace travels in
 * every HTTP/SSE response and stays in the page, so a tool returning photos must not bloat it; a
 * bigger image is still described in `otherContent`, just not shown.
 */
export const MAX_MEDIA_BASE64_CHARS = 300_000;
/** At most this many images per call are kept for display. */
export const MAX_MEDIA_PER_CALL = 4;
/**
 * Raster types a browser renders inertly from a `data:` URL. Not SVG: it can carry scripts and
 * external references, so it stays a descriptor only.
 */
export const DISPLAYABLE_IMAGE_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
];

/** An image block from a tool result, kept so a view can show it. */
export interface TraceMedia {
  type: 'image';
  /** One of `DISPLAYABLE_IMAGE_TYPES`. */
  mimeType: string;
  /** Base64 (standard alphabet), at most `MAX_MEDIA_BASE64_CHARS` characters. */
  data: string;
}

/** Why a call never reached the server, or produced no result. */
export type ToolCallProblem =
  | { kind: 'unknown_function'; message: string }
  | { kind: 'invalid_arguments'; message: string; problems: string[] }
  | { kind: 'jsonrpc'; code: number; message: string }
  | { kind: 'timeout' | 'aborted' | 'transport' | 'not_allowed'; message: string };

export interface ToolCallTrace {
  /** The model's tool-call id. */
  id: string;
  /** Which model turn asked for the call: 1 for the first, and so on; calls of one round ran together. */
  round: number;
  /** The function name the model used. */
  functionName: string;
  /** Where it went: absent when the name matched no tool. */
  server?: string;
  /** The MCP tool; for the agent's own `read_skill`, the `skill://` URI it read. */
  tool?: string;
  /** MCP Apps: the tool's `ui://` view, which the chat page draws under this call. */
  view?: { uri: string };
  /**
   * Set on a call a view made through the chat page (`views/routes.ts`): its `round` is 0, its `id`
   * starts with "view-", and nothing went to the model (`sentToModel` is empty).
   */
  calledBy?: 'view';
  /** The arguments the model sent, parsed when they were valid JSON. */
  arguments: unknown;
  durationMs: number;
  /** True when the tool failed in any way: an `isError` result or a problem below. */
  isError: boolean;
  problem?: ToolCallProblem;
  /** What the server returned, when it returned a result. */
  result?: {
    isError: boolean;
    structuredContent?: unknown;
    /** The text blocks, in order. */
    text: string[];
    /** Short descriptors of the non-text blocks (images, audio, resources). */
    otherContent: string[];
    /**
     * Images to show (also listed in `otherContent`): only PNG, JPEG, GIF or WebP, each within
     * `MAX_MEDIA_BASE64_CHARS`, at most `MAX_MEDIA_PER_CALL`. Absent when there are none.
     */
    media?: TraceMedia[];
  };
  /** Exactly what the agent sent back to the model as the `role: "tool"` message. */
  sentToModel: string;
  sentAs: ModelView['source'];
  truncated: boolean;
  /** Only this call's progress and logs: what came on another call's stream is not here. */
  progress: ProgressEvent[];
  logs: LogEvent[];
  /** The tool's requests for input during the call, and whether anyone was asked. */
  inputs: InputEvent[];
  /** Set when the server ran the call as a task (MCP Tasks): its id, the statuses seen, how long. */
  task?: TaskInfo;
  /**
   * Set on a `search_tools` call (progressive discovery, `discovery/`): the query and the function
   * names it found, best first; `found` is empty when nothing matched. Absent when the arguments were bad.
   */
  discovery?: { query: string; found: string[] };
}

/** A server log no call can claim (see `mcp/hub.ts`), with its time in ms since the turn began. */
export interface ServerLogEvent extends ServerLogMessage {
  atMs: number;
}

export interface TurnResult {
  answer: string;
  conversationId: string;
  toolCalls: ToolCallTrace[];
  /** How many times the model was asked. */
  rounds: number;
  stoppedBecause: 'answer' | 'max_rounds';
  /** Server logs that came while calls ran but belong to none of them; each shown once, here. */
  serverLogs: ServerLogEvent[];
  /** The OpenTelemetry trace of this turn (32 hex digits), when telemetry is on. */
  traceId?: string;
}

/** Callbacks for live views (streamed answer, progress bars). All optional. */
export interface TurnEvents {
  onTextDelta?: (delta: string) => void;
  onToolStart?: (call: {
    id: string;
    round: number;
    functionName: string;
    server?: string;
    tool?: string;
    view?: { uri: string };
    arguments: unknown;
  }) => void;
  onToolProgress?: (id: string, event: ProgressEvent) => void;
  /** A call that became a task: each new status (or status message) while the agent follows it. */
  onToolTask?: (id: string, task: TaskInfo) => void;
  onToolEnd?: (trace: ToolCallTrace) => void;
}
