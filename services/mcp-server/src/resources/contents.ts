/**
 * @module resources/contents
 * The two shapes every resource in this folder answers `resources/read` with: one JSON text item,
 * or one markdown text item. Kept in one place so every resource echoes its URI the same way.
 */
import type { ReadResourceResult } from '@modelcontextprotocol/server';

export const JSON_MIME = 'application/json';
export const MARKDOWN_MIME = 'text/markdown';

/** One `application/json` item, pretty-printed so a person reading it in Inspector can too. */
export function jsonContents(uri: string, value: unknown): ReadResourceResult {
  return { contents: [{ uri, mimeType: JSON_MIME, text: JSON.stringify(value, null, 2) }] };
}

/** One `text/markdown` item. */
export function markdownContents(uri: string, text: string): ReadResourceResult {
  return { contents: [{ uri, mimeType: MARKDOWN_MIME, text }] };
}
