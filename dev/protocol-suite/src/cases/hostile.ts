/**
 * @module protocol-suite/cases/hostile
 * Hostile-input cases the spec leaves to the server (T12: servers MUST validate inputs): huge
 * strings and bodies, deeply nested JSON, oversized argument lists. Each must end in a clean refusal
 * (a 4xx or an isError result) and a server that still answers.
 */
import { expect } from 'vitest';
import type { ProtocolClient, Reply } from '../client.js';
import { expect4xx, type ProtocolCase } from '../harness.js';
import { ALL, isModern } from '../revisions.js';

/** Big enough to hurt a naive server, small enough to stay under the 1 MB body limit. */
const HUGE_STRING_CHARS = 500_000;
/** Nesting far beyond any real schema; JSON.parse survives it, recursive walkers may not. */
const DEEP_NESTING = 5_000;

/** Refused as an isError result, or at the HTTP level with a 4xx: anything but a crash or success. */
function expectRefused(reply: Reply): void {
  if (reply.status === 200 && reply.response?.result) {
    expect(reply.response.result.isError).toBe(true);
    return;
  }
  if (reply.status === 200) {
    expect(reply.error, reply.text.slice(0, 200)).toBeDefined();
    return;
  }
  expect4xx(reply);
}

/** A tools/call body as text with `arguments` spliced in verbatim (JSON.stringify cannot build deep ones). */
function rawToolCall(client: ProtocolClient, name: string, argsJson: string): string {
  const message = client.message('tools/call', { name, arguments: '__ARGS__' }, 9, {});
  return JSON.stringify(message).replace('"__ARGS__"', argsJson);
}

export const hostileCases: ProtocolCase[] = [
  {
    item: 'T12',
    source: 'extra',
    title: `a ${HUGE_STRING_CHARS / 1000} KB string argument → an isError result or a 4xx, and the server survives`,
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.request('tools/call', {
        name: 'get_weather',
        arguments: { location: 'O'.repeat(HUGE_STRING_CHARS) },
      });
      expectRefused(reply);
      await ctx.expectAlive();
    },
  },
  {
    item: 'T12',
    source: 'extra',
    title: 'a request body over 1 MB → 4xx (413)',
    revisions: ALL,
    async run(ctx) {
      const method = isModern(ctx.rev) ? 'tools/list' : 'ping';
      const reply = await ctx.client.request(method, { pad: 'x'.repeat(1_100_000) });
      expect4xx(reply, 413);
      await ctx.expectAlive();
    },
  },
  {
    item: 'J1',
    source: 'extra',
    title: `a body of ${200_000} nested arrays → 4xx, no crash`,
    revisions: ALL,
    async run(ctx) {
      const depth = 200_000;
      const method = isModern(ctx.rev) ? 'tools/list' : 'ping';
      expect4xx(await ctx.client.send(`${'['.repeat(depth)}${']'.repeat(depth)}`, { mcpMethod: method }));
      await ctx.expectAlive();
    },
  },
  {
    item: 'T12',
    source: 'extra',
    title: `tool arguments nested ${DEEP_NESTING} levels deep → an isError result or a 4xx`,
    revisions: ALL,
    async run(ctx) {
      const nested = `${'{"a":'.repeat(DEEP_NESTING)}"x"${'}'.repeat(DEEP_NESTING)}`;
      const body = rawToolCall(ctx.client, 'calculate', `{"expression":${nested}}`);
      const reply = await ctx.client.send(
        body,
        { mcpMethod: 'tools/call', headers: { 'mcp-name': 'calculate' } },
        9,
      );
      expectRefused(reply);
      await ctx.expectAlive();
    },
  },
  {
    item: 'T12',
    source: 'extra',
    title: 'an argument array of 50 000 elements → an isError result or a 4xx',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.request('tools/call', {
        name: 'calculate',
        arguments: { expression: Array.from({ length: 50_000 }, () => 1) },
      });
      expectRefused(reply);
      await ctx.expectAlive();
    },
  },
];
