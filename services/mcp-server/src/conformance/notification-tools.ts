/**
 * @module conformance/notification-tools
 * Fixture tools that talk to the client while they run: log messages, progress, and the SSE
 * stream close the suite's `server-sse-polling` scenario (SEP-1699) looks for.
 */
import type { McpServer } from '@modelcontextprotocol/server';

/** The suite asks for "~50 ms" between notifications, to show they arrive while the call is open. */
export const STEP_DELAY_MS = 50;
/** Time a client gets to reconnect after the stream is closed; the suite reads for up to 10 s. */
export const RECONNECT_GRACE_MS = 100;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const LOG_STEPS = ['Tool execution started', 'Tool processing data', 'Tool execution completed'];
const PROGRESS_STEPS = [0, 50, 100];
const PROGRESS_TOTAL = 100;

export function registerNotificationTools(server: McpServer): void {
  server.registerTool(
    'test_tool_with_logging',
    { description: 'Conformance fixture: sends three info log messages, 50 ms apart, then returns.' },
    async (ctx) => {
      for (const [index, message] of LOG_STEPS.entries()) {
        if (index > 0) await sleep(STEP_DELAY_MS);
        await ctx.mcpReq.log('info', message);
      }
      return { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] };
    },
  );

  server.registerTool(
    'test_tool_with_progress',
    { description: 'Conformance fixture: reports progress 0, 50 and 100 of 100, 50 ms apart.' },
    async (ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (const [index, progress] of PROGRESS_STEPS.entries()) {
        if (index > 0) await sleep(STEP_DELAY_MS);
        // Without a token the client did not ask for progress, so the delays are all that is left.
        if (progressToken === undefined) continue;
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress, total: PROGRESS_TOTAL },
        });
      }
      return { content: [{ type: 'text', text: 'Tool with progress executed successfully' }] };
    },
  );

  server.registerTool(
    'test_reconnection',
    {
      description:
        'Conformance fixture (SEP-1699): closes the SSE stream mid-call, then returns; the client reconnects to get the result.',
    },
    async (ctx) => {
      // The SDK offers closeSSE only on a transport with an event store; without one the result
      // simply arrives on the stream that is still open, which the suite reports as a warning.
      ctx.http?.closeSSE?.();
      await sleep(RECONNECT_GRACE_MS);
      return { content: [{ type: 'text', text: 'Reconnection test completed successfully.' }] };
    },
  );
}
