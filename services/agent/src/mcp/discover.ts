/**
 * @module mcp/discover
 * Reads a server's whole tool list (every `tools/list` page), with each tool's MCP Apps settings,
 * and gives the tools meant for the model a name that is unique across all connected servers. Used at connect time and by
 * `McpHub.refresh()`.
 */
import type { Client, Tool } from '@modelcontextprotocol/client';
import type { DiscoveredTool } from '../types.js';
import { readToolUi } from '../views/ui-meta.js';

/**
 * Upper bound on `tools/list` pages per listing, handed to the SDK as `listMaxPages`. A server
 * whose `nextCursor` never converges must fail discovery, not hang start-up; 50 pages is far
 * more than any real server sends (and more tools than a model can choose between anyway).
 */
export const MAX_TOOL_LIST_PAGES = 50;

/** Each `tools/list` page must answer within this; listing is cheap, so a slow answer means trouble. */
export const TOOL_LIST_TIMEOUT_MS = 15_000;

/**
 * Joins server and tool in a qualified name. Unlike `.`, it survives OpenAI's `[A-Za-z0-9_-]`
 * unchanged, and MCP tool names (which may contain dots) rarely contain it.
 */
export const QUALIFIED_NAME_SEPARATOR = '__';

/**
 * Lists every tool of one server. The SDK follows `nextCursor` page by page (bounded by
 * `listMaxPages`, which `connectServer` sets to {@link MAX_TOOL_LIST_PAGES}) and throws if the
 * bound is hit, so a partial list is never taken for the whole one.
 */
export async function listServerTools(
  client: Client,
  server: string,
  options: { signal?: AbortSignal } = {},
): Promise<DiscoveredTool[]> {
  // 'refresh': after list_changed the cached list is stale by definition.
  const { tools } = await client.listTools(undefined, {
    cacheMode: 'refresh',
    timeout: TOOL_LIST_TIMEOUT_MS,
    ...(options.signal && { signal: options.signal }),
  });
  return tools.map((tool) => toDiscoveredTool(server, tool));
}

/** Keeps what the model, the trace and a view need from an MCP `Tool`; drops icons and the rest of `_meta`. */
export function toDiscoveredTool(server: string, tool: Tool): DiscoveredTool {
  const title = tool.title ?? tool.annotations?.title;
  const ui = readToolUi(tool._meta);
  return {
    server,
    name: tool.name,
    ...(title !== undefined && { title }),
    ...(tool.description !== undefined && { description: tool.description }),
    inputSchema: tool.inputSchema as DiscoveredTool['inputSchema'],
    ...(tool.outputSchema !== undefined && {
      outputSchema: tool.outputSchema as DiscoveredTool['inputSchema'],
    }),
    ...(tool.annotations !== undefined && { annotations: { ...tool.annotations } }),
    ...(ui !== undefined && { ui }),
  };
}

/** A discovered tool with its name across all servers. */
export type QualifiedTool = DiscoveredTool & { qualifiedName: string };

/**
 * Gives every tool a `qualifiedName` unique across servers: a name offered by only one server
 * stays as it is; a name several servers offer becomes `<server>__<tool>` on each of them.
 * A server that lists the same name twice keeps the first (the second could never be called
 * apart from it). Pure; `warn` hears about anything dropped or renamed twice.
 */
export function qualifyTools(
  perServer: ReadonlyArray<{ server: string; tools: readonly DiscoveredTool[] }>,
  warn: (message: string, details: Record<string, unknown>) => void = () => {},
): QualifiedTool[] {
  const unique = perServer.map(({ server, tools }) => {
    const seen = new Set<string>();
    return tools.filter((tool) => {
      if (seen.has(tool.name)) {
        warn('server lists a tool name twice; keeping the first', { server, tool: tool.name });
        return false;
      }
      seen.add(tool.name);
      return true;
    });
  });

  const serversPerName = new Map<string, number>();
  for (const tools of unique) {
    for (const tool of tools) serversPerName.set(tool.name, (serversPerName.get(tool.name) ?? 0) + 1);
  }

  const taken = new Set<string>();
  const result: QualifiedTool[] = [];
  for (const tools of unique) {
    for (const tool of tools) {
      const wanted =
        (serversPerName.get(tool.name) ?? 0) > 1
          ? `${tool.server}${QUALIFIED_NAME_SEPARATOR}${tool.name}`
          : tool.name;
      let qualifiedName = wanted;
      // Only a tool literally named like another's prefixed name (`a__b`) gets here.
      for (let n = 2; taken.has(qualifiedName); n++) qualifiedName = `${wanted}_${n}`;
      if (qualifiedName !== wanted) {
        warn('qualified tool name was taken; added a suffix', {
          server: tool.server,
          tool: tool.name,
          qualifiedName,
        });
      }
      taken.add(qualifiedName);
      result.push({ ...tool, qualifiedName });
    }
  }
  return result;
}
