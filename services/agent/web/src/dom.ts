/**
 * @module dom
 * A tiny element builder: text goes in as text nodes, never as HTML, because tool output is untrusted.
 */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

export function pretty(value: unknown): string {
  if (value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

/** A scrollable, wrapping block for JSON or tool text. */
export function codeBlock(text: string): HTMLPreElement {
  return el('pre', { class: 'code', tabindex: '0' }, text);
}
