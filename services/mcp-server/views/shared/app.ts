/**
 * What both views share: connecting the ext-apps `App` to its host, building DOM nodes without
 * `innerHTML` (task titles and place names are user text), and reading a tool result.
 */
import { App } from '@modelcontextprotocol/ext-apps';

/** A tool result as the host hands it to a view (`ui/notifications/tool-result`, `callServerTool`). */
export interface ToolResultLike {
  content?: ReadonlyArray<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

/** A new App for this view. The host drives it: connect() sends `ui/initialize` over postMessage. */
export function createApp(name: string): App {
  return new App({ name, version: '0.1.0' });
}

/** The text blocks of a result, joined: what a failure says (`fail()` puts its message there). */
export function resultText(result: ToolResultLike): string {
  return (result.content ?? [])
    .map((block) => (block.type === 'text' ? (block.text ?? '') : ''))
    .join('\n')
    .trim();
}

type Child = Node | string | null | undefined | false;

/** `document.createElement` with attributes and children; strings become text nodes, never markup. */
export function h(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

/** Shows `message` in the view's status line (role=status), or clears it. */
export function showStatus(message: string): void {
  const status = document.getElementById('status');
  if (status) status.textContent = message;
}
