/**
 * @module protocol-suite/cases/tools
 * Tool cases: listing, schemas, annotations, pagination, calls, structured results and tool
 * errors. Checklist §4 and §9 rows 34–47, 49, 50; addendum §4 rows 2–4 and 11.
 */
import { expect } from 'vitest';
import {
  expectContentBlock,
  expectResultFor,
  expectRpcError,
  listAll,
  type ProtocolCase,
  requireTool,
  sampleArgs,
  schemaIssues,
  tryJson,
} from '../harness.js';
import { ALL, isModern, LEGACY, legacyFrom, MODERN } from '../revisions.js';

type Obj = Record<string, unknown>;

/** A tool every revision can call with valid arguments, and that declares an outputSchema. */
const WEATHER = { name: 'get_weather', arguments: { location: 'Oslo' } };

/** The suite's server pages lists by this many items (see protocol-suite.test.ts). */
export const SUITE_PAGE_SIZE = 3;

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

export const toolCases: ProtocolCase[] = [
  {
    item: 'T2',
    source: '§9 #34',
    title: 'tools/list → tools[] with string names and an object-rooted inputSchema that compiles',
    revisions: ALL,
    async run(ctx) {
      const { items } = await listAll(ctx.client, 'tools/list', 'tools');
      expect(items.length).toBeGreaterThan(0);
      for (const tool of items) {
        expect(typeof tool.name).toBe('string');
        const input = tool.inputSchema as Obj;
        expect(input?.type, `${tool.name}.inputSchema.type`).toBe('object');
        expect(() => schemaIssues(input, {}), `${tool.name}.inputSchema compiles`).not.toThrow();
        if ('description' in tool) expect(typeof tool.description).toBe('string');
      }
    },
  },
  {
    item: '§1.3',
    source: 'A#2',
    title: 'tools/list → tools[] plus resultType, ttlMs and cacheScope',
    revisions: MODERN,
    async run(ctx) {
      const result = expectResultFor(ctx.rev, await ctx.client.request('tools/list'));
      expect(Array.isArray(result.tools)).toBe(true);
      expect(result.resultType).toBe('complete');
      expect(typeof result.ttlMs).toBe('number');
      expect(['public', 'private']).toContain(result.cacheScope);
    },
  },
  {
    item: 'T5',
    source: '§9 #35',
    title: 'tool names match ^[A-Za-z0-9_.-]{1,128}$ and are unique',
    revisions: ['2025-11-25', ...MODERN],
    async run(ctx) {
      const names = (await listAll(ctx.client, 'tools/list', 'tools')).items.map((tool) => String(tool.name));
      for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
      expect(new Set(names).size).toBe(names.length);
    },
  },
  {
    item: 'T4',
    source: '§9 #36',
    title: 'every outputSchema has root type "object"',
    revisions: legacyFrom('2025-06-18'),
    async run(ctx) {
      for (const tool of (await listAll(ctx.client, 'tools/list', 'tools')).items) {
        if (tool.outputSchema !== undefined)
          expect((tool.outputSchema as Obj).type, String(tool.name)).toBe('object');
      }
    },
  },
  {
    item: 'T6',
    source: '§9 #37',
    title: 'annotations: the four hints are booleans and title is a string',
    revisions: ALL,
    async run(ctx) {
      for (const tool of (await listAll(ctx.client, 'tools/list', 'tools')).items) {
        const annotations = (tool.annotations ?? {}) as Obj;
        for (const hint of HINTS) {
          if (hint in annotations) expect(typeof annotations[hint], `${tool.name}.${hint}`).toBe('boolean');
        }
        if ('title' in annotations) expect(typeof annotations.title).toBe('string');
      }
    },
  },
  {
    item: 'U5',
    source: '§9 #38',
    title: 'following nextCursor through tools/list ends without a cursor and repeats no tool',
    revisions: ALL,
    async run(ctx) {
      const { items, pages } = await listAll(ctx.client, 'tools/list', 'tools');
      expect(pages).toBe(Math.max(1, Math.ceil(items.length / SUITE_PAGE_SIZE)));
      expect(pages).toBeGreaterThan(1);
      const names = items.map((tool) => tool.name);
      expect(new Set(names).size).toBe(names.length);
    },
  },
  {
    item: 'U5',
    source: '§9 #39',
    title: 'tools/list with cursor "%%bad" → -32602',
    revisions: ALL,
    async run(ctx) {
      expectRpcError(await ctx.client.request('tools/list', { cursor: '%%bad' }), [-32602]);
      await ctx.expectAlive();
    },
  },
  {
    item: 'U5',
    source: 'extra',
    title: 'resources/list, resources/templates/list and prompts/list with cursor "%%bad" → -32602',
    revisions: ALL,
    async run(ctx) {
      for (const method of ['resources/list', 'resources/templates/list', 'prompts/list']) {
        const reply = await ctx.client.request(method, { cursor: '%%bad' });
        expect(reply.error?.code, method).toBe(-32602);
      }
      await ctx.expectAlive();
    },
  },
  {
    item: 'T7',
    source: '§9 #40',
    title: 'tools/call get_weather → content[] of known block types with their required fields',
    revisions: ALL,
    async run(ctx) {
      const result = expectResultFor(ctx.rev, await ctx.client.request('tools/call', WEATHER));
      expect(Array.isArray(result.content)).toBe(true);
      expect((result.content as Obj[]).length).toBeGreaterThan(0);
      for (const block of result.content as Obj[]) expectContentBlock(ctx.rev, block);
      expect(result.isError ?? false).toBe(false);
    },
  },
  {
    item: '§1.5',
    source: 'A#3',
    title: 'tools/call with Mcp-Name → text content, an object structuredContent, resultType "complete"',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request('tools/call', WEATHER);
      expect(reply.status).toBe(200);
      const result = expectResultFor(ctx.rev, reply);
      expect((result.content as Obj[])[0]?.type).toBe('text');
      expect(result.structuredContent).toBeTypeOf('object');
      expect(result.resultType).toBe('complete');
    },
  },
  {
    item: 'T9',
    source: '§9 #41',
    title: 'structuredContent validates against the tool’s outputSchema',
    revisions: [...legacyFrom('2025-06-18'), ...MODERN],
    async run(ctx) {
      const tool = await requireTool(ctx.client, WEATHER.name);
      const result = expectResultFor(ctx.rev, await ctx.client.request('tools/call', WEATHER));
      expect(tool.outputSchema).toBeTypeOf('object');
      expect(schemaIssues(tool.outputSchema as Obj, result.structuredContent)).toEqual([]);
    },
  },
  {
    item: 'T8',
    source: '§9 #42',
    title: 'a text block holds the same JSON as structuredContent (SHOULD)',
    revisions: [...legacyFrom('2025-06-18'), ...MODERN],
    async run(ctx) {
      const result = expectResultFor(ctx.rev, await ctx.client.request('tools/call', WEATHER));
      const texts = (result.content as Obj[])
        .filter((block) => block.type === 'text')
        .map((block) => tryJson(block.text));
      expect(texts).toContainEqual(result.structuredContent);
    },
  },
  {
    item: 'T8',
    source: '§9 #43',
    title: 'structuredContent is a JSON object (not an array, null or scalar)',
    revisions: legacyFrom('2025-06-18'),
    async run(ctx) {
      for (const call of [WEATHER, { name: 'list_cities', arguments: {} }]) {
        const result = expectResultFor(ctx.rev, await ctx.client.request('tools/call', call));
        const structured = result.structuredContent;
        expect(
          structured !== null && typeof structured === 'object' && !Array.isArray(structured),
          call.name,
        ).toBe(true);
      }
    },
  },
  {
    item: '§1.5',
    source: 'A#4',
    title: 'structuredContent has the JSON type of the outputSchema root, unwrapped',
    revisions: MODERN,
    async run(ctx) {
      for (const name of [WEATHER.name, 'list_cities']) {
        const tool = await requireTool(ctx.client, name);
        const args = name === WEATHER.name ? WEATHER.arguments : sampleArgs(tool.inputSchema as Obj);
        const result = expectResultFor(
          ctx.rev,
          await ctx.client.request('tools/call', { name, arguments: args }),
        );
        const rootType = (tool.outputSchema as Obj).type;
        const actual = Array.isArray(result.structuredContent) ? 'array' : typeof result.structuredContent;
        expect(actual, name).toBe(rootType);
        expect(schemaIssues(tool.outputSchema as Obj, result.structuredContent)).toEqual([]);
      }
    },
  },
  {
    item: 'T10',
    source: '§9 #44',
    title: 'tools/call of unknown tool "nope" → a JSON-RPC error (e.g. -32602), not a result',
    revisions: LEGACY,
    async run(ctx) {
      const reply = await ctx.client.request('tools/call', { name: 'nope', arguments: {} });
      expect(reply.response?.result).toBeUndefined();
      expect(typeof reply.error?.code).toBe('number');
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.5',
    source: 'A#11',
    title: 'tools/call of unknown tool "nope" → error -32602, not a result',
    revisions: MODERN,
    async run(ctx) {
      expectRpcError(await ctx.client.request('tools/call', { name: 'nope', arguments: {} }), [-32602]);
      await ctx.expectAlive();
    },
  },
  {
    item: 'T10',
    source: '§9 #45',
    title: 'tools/call without a name → -32602 or -32600',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.request('tools/call', { arguments: {} });
      // 2026-07-28 may refuse at the missing Mcp-Name header first (-32020): also a protocol error.
      expectRpcError(reply, isModern(ctx.rev) ? [-32602, -32600, -32020] : [-32602, -32600]);
      await ctx.expectAlive();
    },
  },
  {
    item: 'T10',
    source: '§9 #46',
    title: 'arguments of the wrong type → isError result (2025-11-25+); -32602 or isError before',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.request('tools/call', {
        name: WEATHER.name,
        arguments: { location: 42 },
      });
      if (ctx.rev >= '2025-11-25' || reply.response?.result) {
        const result = expectResultFor(ctx.rev, reply);
        expect(result.isError).toBe(true);
        expect((result.content as Obj[]).some((block) => block.type === 'text')).toBe(true);
      } else {
        expectRpcError(reply, [-32602]);
      }
      await ctx.expectAlive();
    },
  },
  {
    item: 'T10',
    source: '§9 #47',
    title: 'a tool that fails (calculate "1/0") → isError: true with a text explanation',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.request('tools/call', {
        name: 'calculate',
        arguments: { expression: '1/0' },
      });
      const result = expectResultFor(ctx.rev, reply);
      expect(result.isError).toBe(true);
      const text = (result.content as Obj[]).find((block) => block.type === 'text');
      expect(String(text?.text ?? '').length).toBeGreaterThan(0);
    },
  },
  {
    item: 'T7',
    source: '§9 #49',
    title: 'image and audio content carry valid base64 data and a mimeType (conformance fixtures)',
    revisions: ALL,
    async run(ctx) {
      const fixtures =
        ctx.rev >= '2025-03-26' ? ['test_image_content', 'test_audio_content'] : ['test_image_content'];
      for (const name of fixtures) {
        await requireTool(ctx.client, name);
        const result = expectResultFor(
          ctx.rev,
          await ctx.client.request('tools/call', { name, arguments: {} }),
        );
        const blocks = (result.content as Obj[]).filter(
          (block) => block.type === 'image' || block.type === 'audio',
        );
        expect(blocks.length, `${name} returned no image/audio block`).toBeGreaterThan(0);
        for (const block of blocks) expectContentBlock(ctx.rev, block);
      }
    },
  },
  {
    item: 'T13',
    source: '§9 #50',
    title: 'task:{} on a tool without taskSupport → -32601 if tasks are declared, else run normally',
    revisions: ['2025-11-25'],
    async run(ctx) {
      const tool = await requireTool(ctx.client, 'get_time');
      const taskSupport = (tool.execution as Obj | undefined)?.taskSupport ?? 'forbidden';
      expect(taskSupport).toBe('forbidden');
      const reply = await ctx.client.request('tools/call', {
        name: 'get_time',
        arguments: sampleArgs(tool.inputSchema as Obj),
        task: { ttl: 60_000 },
      });
      const tasks = ctx.client.serverCapabilities.tasks as Obj | undefined;
      const declared = Boolean(((tasks?.requests as Obj | undefined)?.tools as Obj | undefined)?.call);
      if (declared) {
        expectRpcError(reply, [-32601]);
      } else {
        // Tasks spec: a receiver that does not declare tasks MUST ignore the task field.
        const result = expectResultFor(ctx.rev, reply);
        expect(result.task).toBeUndefined();
        expect(Array.isArray(result.content)).toBe(true);
      }
      await ctx.expectAlive();
    },
  },
];
