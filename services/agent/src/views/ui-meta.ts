/**
 * @module views/ui-meta
 * Reads what MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865) puts in a tool's `_meta`: the `ui://`
 * view that draws its results and who may call it. Everything here comes from the server, so it is
 * checked, and anything odd is dropped rather than trusted: a tool whose view URI is not a plain
 * `ui://` URI simply has no view.
 */
import { isPlainObject } from '@mcp-workshop/shared';
import type { ToolUi, ToolVisibility } from '../types.js';

/** The extension's id, which the agent declares in its client capabilities. */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The one MIME type a view resource may have. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
/** Longer than any real view URI; a longer one is a server filling the trace. */
export const MAX_VIEW_URI_CHARS = 2_048;
/** `ui://` then printable ASCII without spaces, quotes or angle brackets. */
const VIEW_URI = /^ui:\/\/[\x21\x23-\x3b\x3d\x3f-\x7e]+$/;
const VISIBILITIES: readonly ToolVisibility[] = ['model', 'app'];
const BOTH: readonly ToolVisibility[] = Object.freeze(['model', 'app']);

/** A view URI as the spec spells it (lower-case `ui://`, nothing hidden), or undefined. */
export function checkedViewUri(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= MAX_VIEW_URI_CHARS && VIEW_URI.test(value)
    ? value
    : undefined;
}

/**
 * A tool's `_meta.ui`, or undefined when it has neither a view nor a visibility. The flat
 * `_meta["ui/resourceUri"]` of the extension's drafts is read too, as the SDK's helper does.
 */
export function readToolUi(meta: unknown): ToolUi | undefined {
  if (!isPlainObject(meta)) return undefined;
  const ui = isPlainObject(meta.ui) ? meta.ui : {};
  const resourceUri = checkedViewUri(ui.resourceUri ?? meta['ui/resourceUri']);
  const listed = Array.isArray(ui.visibility) ? ui.visibility : undefined;
  if (resourceUri === undefined && listed === undefined) return undefined;
  const visibility = listed ? VISIBILITIES.filter((who) => listed.includes(who)) : BOTH;
  return { ...(resourceUri !== undefined && { resourceUri }), visibility };
}

/** Whether the model may see and call a tool: no `ui` or a visibility with "model". */
export function visibleToModel(ui: ToolUi | undefined): boolean {
  return ui === undefined || ui.visibility.includes('model');
}

/** Whether a view may call a tool: no `ui` (the spec's default is both) or a visibility with "app". */
export function visibleToApp(ui: ToolUi | undefined): boolean {
  return ui === undefined || ui.visibility.includes('app');
}
