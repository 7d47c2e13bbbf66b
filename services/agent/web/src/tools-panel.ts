/**
 * @module tools-panel
 * The side panel listing what the model can call right now, with each tool's input schema: drawn
 * from `GET /api/tools`, and from each `tools` event the catalogue feed pushes (`catalogue-feed.ts`).
 */
import { codeBlock, el, pretty } from './dom.js';
import type { Tool } from './types.js';

export async function refreshTools(list: HTMLElement): Promise<void> {
  try {
    const response = await fetch('./api/tools');
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { tools } = (await response.json()) as { tools: Tool[] };
    renderTools(list, tools);
  } catch (error) {
    list.replaceChildren(el('li', { class: 'problem' }, `Could not load tools: ${String(error)}`));
    delete list.dataset.signature;
  }
}

export function renderTools(list: HTMLElement, tools: readonly Tool[]): void {
  // Keep open <details> open across refreshes: only redraw when something changed.
  const signature = JSON.stringify(tools);
  if (list.dataset.signature === signature) return;
  list.dataset.signature = signature;
  const items = tools.map((tool) =>
    el(
      'li',
      { class: 'tool', 'data-testid': 'tool-item' },
      el('strong', {}, tool.qualifiedName ?? tool.name),
      el('span', { class: 'server' }, ` (${tool.server})`),
      el('p', {}, tool.description ?? tool.title ?? ''),
      el('details', {}, el('summary', {}, 'Input schema'), codeBlock(pretty(tool.inputSchema))),
    ),
  );
  list.replaceChildren(...(items.length > 0 ? items : [el('li', {}, 'No tools discovered.')]));
}
