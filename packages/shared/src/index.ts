/**
 * @module @mcp-workshop/shared
 * The tool-result contract shared by the MCP server and the agent.
 */
export type { ParseEnvOptions } from './env.js';
export { commaList, EnvError, parseEnv } from './env.js';
export { ToolError, WorkshopError } from './errors.js';
export { escapeHtml } from './html.js';
export type { ListResult, OkOptions, SafeFailure, StructuredToolResult } from './result.js';
export { fail, failFromError, ok, okList, okText, resultText } from './result.js';
export type {
  Annotations,
  AudioContent,
  CallToolResult,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  StructuredContent,
  TextContent,
} from './schemas.js';
export {
  AnnotationsSchema,
  AudioContentSchema,
  BlobResourceContentsSchema,
  CallToolResultSchema,
  ContentBlockSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  isPlainObject,
  isRecord,
  ResourceLinkSchema,
  StructuredContentSchema,
  TextContentSchema,
  TextResourceContentsSchema,
} from './schemas.js';
export type { ModelView, ToModelOptions } from './to-model.js';
export {
  DEFAULT_MODEL_BUDGET_CHARS,
  describeContent,
  failureToModel,
  MIN_MODEL_BUDGET_CHARS,
  resultToModel,
} from './to-model.js';
export type { ValidationOutcome } from './validate.js';
export { assertToolResult, validateToolResult } from './validate.js';
