/**
 * @module 04-agent-recovers/starter/tool-message
 * Exercise 04: what the model reads after a tool call. `../agent.ts` calls `toolMessage` for every
 * result. Edit this file; `pnpm exercise 04` checks it with a scripted model.
 */
import type { CallToolResult } from '@mcp-workshop/shared';

/** The text of a result's text blocks, joined. */
function textOf(result: CallToolResult): string {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

export function toolMessage(result: CallToolResult): string {
  if (result.isError) {
    // TODO(exercise 04): a failed call is not the end of the conversation. Throwing here stops the
    // agent, and the model never learns what went wrong. Return a message instead that
    // 1. says plainly that the call failed (the workshop agent sends {"error": "..."}), and
    // 2. carries the tool's own words, which say how to fix the call.
    throw new Error(`The tool failed: ${textOf(result)}`);
  }
  // Structured data first: it is what the tool promised in its outputSchema.
  return result.structuredContent === undefined ? textOf(result) : JSON.stringify(result.structuredContent);
}
