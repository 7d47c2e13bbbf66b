/**
 * @module test-support/fixture-server
 * A small MCP server of the host's own tests, unlike the workshop's catalogue on purpose: the host
 * must serve any `() => McpServer`, so its tests prove that on a server it has never seen. It has
 * an open tool (`echo`), one that says who is asking (`whoami`), one guarded by a scope
 * (`write_note`), a `notes://` resource family and a prompt guarded by scopes, one that reports
 * progress and logs, one that elicits, and a change feed for 2026-07-28 listen streams.
 */

import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ownerOf } from '../auth/caller.js';
import { createScopePolicy, type ScopePolicy } from '../auth/policy.js';
import type { OwnerEventBus } from '../http/owner-bus.js';

export const FIXTURE_INFO = { name: 'fixture-notes', version: '9.9.9' } as const;
export const NOTES_READ = 'notes:read';
export const NOTES_WRITE = 'notes:write';

/** Which scope guards what on the fixture: names the host has never heard of. */
export const FIXTURE_POLICY: ScopePolicy = createScopePolicy({
  supported: [NOTES_READ, NOTES_WRITE],
  tools: [{ name: 'write_note', scopes: [NOTES_WRITE] }],
  prompts: [{ name: 'summarize_note', scopes: [NOTES_READ] }],
  resourceSchemes: { notes: [NOTES_READ] },
});

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

export function createFixtureServer(): McpServer {
  const server = new McpServer(FIXTURE_INFO, {
    // subscribe: a 2026-07-28 listen stream keeps only the notifications the server says it sends.
    capabilities: { logging: {}, resources: { subscribe: true, listChanged: true } },
  });
  server.registerTool(
    'echo',
    {
      description: 'Says the text back.',
      inputSchema: z.object({ text: z.string().describe('What to say') }),
    },
    async ({ text: said }) => text(said),
  );
  server.registerTool('whoami', { description: 'Says whose data this call may touch.' }, async (ctx) =>
    text(JSON.stringify({ owner: ownerOf(ctx.http?.authInfo) })),
  );
  server.registerTool(
    'write_note',
    {
      description: 'Pretends to write a note.',
      inputSchema: z.object({ body: z.string().describe('The note') }),
    },
    async ({ body }) => text(`noted: ${body}`),
  );
  server.registerTool('slow_steps', { description: 'Reports progress twice and logs once.' }, async (ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    await ctx.mcpReq.log('info', 'stepping');
    for (const progress of [1, 2]) {
      if (progressToken === undefined) continue;
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, total: 2 },
      });
    }
    return text('done');
  });
  server.registerTool('ask_name', { description: 'Asks the user for a name.' }, async (ctx) => {
    const answer = await ctx.mcpReq.elicitInput({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return text(`hello ${String(answer.content?.name ?? answer.action)}`);
  });
  server.registerResource(
    'note',
    new ResourceTemplate('notes://{id}', { list: undefined }),
    { description: 'One note by id.', mimeType: 'text/plain' },
    async (uri, { id }) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: `note ${String(id)}` }],
    }),
  );
  server.registerPrompt(
    'summarize_note',
    {
      description: 'Asks for a summary of a note.',
      argsSchema: z.object({ id: z.string().describe('Note id') }),
    },
    ({ id }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize note ${id}.` } }] }),
  );
  return server;
}

/**
 * The fixture's change feed: `publishEvents` for the host, `touch` to announce one owner's note,
 * and `listChanged` for a change that concerns everybody.
 */
export function createFixtureFeed(): {
  publishEvents: (bus: OwnerEventBus) => () => void;
  touch(owner: string, id: string): void;
  listChanged(): void;
} {
  let current: OwnerEventBus | undefined;
  return {
    publishEvents(bus) {
      current = bus;
      return () => {
        current = undefined;
      };
    },
    touch(owner, id) {
      current?.publishTo(owner, { kind: 'resource_updated', uri: `notes://${id}` });
    },
    listChanged() {
      current?.publish({ kind: 'resources_list_changed' });
    },
  };
}
