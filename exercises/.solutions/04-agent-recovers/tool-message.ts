/**
 * @module .solutions/04-agent-recovers/tool-message
 * A solution to exercise 04: a failure is data for the model, marked as an error and carrying the
 * tool's own words. The workshop agent does the same in `packages/shared/src/to-model.ts`.
 */
import type { CallToolResult } from '@mcp-workshop/shared';

/** The text of a result's text blocks, joined. */
function textOf(result: CallToolResult): string {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

export function toolMessage(result: CallToolResult): string {
  if (result.isError) {
    // isError first: a failed result's text is the model's only clue, and it must not look like data.
    return JSON.stringify({ error: textOf(result) || 'The tool failed without saying why.' });
  }
  return result.structuredContent === undefined ? textOf(result) : JSON.stringify(result.structuredContent);
}
