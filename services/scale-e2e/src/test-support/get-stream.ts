/**
 * @module test-support/get-stream
 * A 2025-11-25 session's GET stream (SSE), read message by message, so a test can time how long a
 * notification takes to arrive. The reading itself is test-infra's `openSseStream`.
 */
import { openSseStream, type SseStream } from '@mcp-workshop/test-infra';
import type { JsonRpcMessage } from './mcp.js';

export type GetStream = SseStream<JsonRpcMessage>;

export function openGetStream(mcpUrl: string, sessionId: string): Promise<GetStream> {
  return openSseStream<JsonRpcMessage>(mcpUrl, {
    'mcp-session-id': sessionId,
    'mcp-protocol-version': '2025-11-25',
  });
}
