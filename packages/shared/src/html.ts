/**
 * @module html
 * Escaping for the small HTML pages the services write themselves (sign-in pages, the sign-in
 * callback): every value that came from a request or a client goes through `escapeHtml`.
 */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** The text as HTML text or a quoted attribute value: `& < > " '` become entities. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}
