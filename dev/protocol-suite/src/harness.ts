/**
 * @module protocol-suite/harness
 * What a protocol case is, what it gets to run with, and the assertions cases share. Cases live in
 * `cases/`; `protocol-suite.test.ts` runs each once per revision it lists.
 */
import { fromJsonSchema } from '@modelcontextprotocol/server';
import { expect } from 'vitest';
import type { JsonRpcId, ProtocolClient, Reply } from './client.js';
import { isModern, type Revision } from './revisions.js';

/** The live server a describe block started. */
export interface SuiteServer {
  baseUrl: string;
  mcpUrl: string;
}

export interface CaseContext {
  rev: Revision;
  server: SuiteServer;
  /** The describe block's client: one session (legacy) shared by its cases. */
  client: ProtocolClient;
  /** Another client (another session) with these capabilities, closed after the case. */
  connect(capabilities?: Record<string, unknown>): Promise<ProtocolClient>;
  /** Asserts the server still answers a normal request; every malformed-input case ends with it. */
  expectAlive(): Promise<void>;
}

export interface ProtocolCase {
  /** The spec item, e.g. 'H4' (checklist) or '§1.9' (2026-07-28 addendum). */
  item: string;
  /** Where the expectation is written: '§9 #6' (checklist test table), 'A#5' (addendum §4), or 'extra'. */
  source: string;
  title: string;
  revisions: readonly Revision[];
  /** For cases that wait on a long-running tool. */
  timeoutMs?: number;
  run(ctx: CaseContext): Promise<void>;
}

export function caseName(c: ProtocolCase): string {
  return `[${c.item}] ${c.title} (${c.source})`;
}

type Obj = Record<string, unknown>;

/** Asserts `reply` answered its request with a result, and returns it. */
export function expectResult(reply: Reply): Obj {
  expect(
    reply.error,
    `expected a result, got HTTP ${reply.status} ${reply.text.slice(0, 300)}`,
  ).toBeUndefined();
  expect(reply.status).toBe(200);
  const result = reply.response?.result;
  expect(result, `no result in: ${reply.text.slice(0, 300)}`).toBeTypeOf('object');
  return result as Obj;
}

/** Like `expectResult`, plus the 2026-07-28 rule that every result carries `resultType`. */
export function expectResultFor(rev: Revision, reply: Reply): Obj {
  const result = expectResult(reply);
  if (isModern(rev)) expect(['complete', 'input_required']).toContain(result.resultType);
  return result;
}

/** Asserts `reply` is a JSON-RPC error with one of `codes` (and no result), and returns the error. */
export function expectRpcError(
  reply: Reply,
  codes: readonly number[],
  options: { status?: number | readonly number[]; id?: JsonRpcId } = {},
): NonNullable<Reply['error']> {
  const error = reply.error;
  expect(
    error,
    `expected a JSON-RPC error, got HTTP ${reply.status} ${reply.text.slice(0, 300)}`,
  ).toBeDefined();
  expect(reply.response?.result).toBeUndefined();
  expect(codes).toContain(error?.code);
  expect(typeof error?.message).toBe('string');
  if (options.status !== undefined) {
    expect([options.status].flat()).toContain(reply.status);
  }
  if (options.id !== undefined) expect(reply.response?.id).toBe(options.id);
  return error as NonNullable<Reply['error']>;
}

/** Asserts an HTTP-level refusal: a 4xx status (never a 2xx that pretends, never a 5xx crash). */
export function expect4xx(reply: Reply | { status: number }, exactly?: number): void {
  if (exactly !== undefined) expect(reply.status).toBe(exactly);
  expect(reply.status).toBeGreaterThanOrEqual(400);
  expect(reply.status).toBeLessThan(500);
}

/** Most pages any list walk may take: the suite's server pages by 3, and no list is near 150 items. */
export const MAX_PAGES = 50;

/** Walks a paginated list to its end; returns every item and how many pages it took. */
export async function listAll(
  client: ProtocolClient,
  method: string,
  key: string,
): Promise<{ items: Obj[]; pages: number }> {
  const items: Obj[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= MAX_PAGES; pages++) {
    const result = expectResultFor(client.rev, await client.request(method, cursor ? { cursor } : {}));
    expect(Array.isArray(result[key]), `${method} result has no ${key}[]`).toBe(true);
    items.push(...(result[key] as Obj[]));
    if (result.nextCursor === undefined) return { items, pages };
    expect(typeof result.nextCursor).toBe('string');
    cursor = result.nextCursor as string;
  }
  throw new Error(`${method} still had a nextCursor after ${MAX_PAGES} pages`);
}

/** tools/list per client, walked once: the list is fixed, and cases that only need one tool should not page it again. */
const toolLists = new WeakMap<ProtocolClient, Promise<{ items: Obj[] }>>();

/** The listed tool called `name`; fails the case (with a clear reason) if the server has none. */
export async function requireTool(client: ProtocolClient, name: string): Promise<Obj> {
  let list = toolLists.get(client);
  if (!list) {
    list = listAll(client, 'tools/list', 'tools');
    toolLists.set(client, list);
    list.catch(() => toolLists.delete(client));
  }
  const { items } = await list;
  const tool = items.find((item) => item.name === name);
  expect(tool, `tool ${name} is not listed (not implemented yet?)`).toBeDefined();
  return tool as Obj;
}

/** Validates `value` against a JSON Schema (2020-12 by default) with the SDK's validator. */
export function schemaIssues(schema: Obj, value: unknown): string[] {
  const outcome = fromJsonSchema(schema as never)['~standard'].validate(value);
  if (outcome instanceof Promise) throw new Error('schema validation unexpectedly async');
  return outcome.issues ? outcome.issues.map((issue) => issue.message) : [];
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Asserts one content block has a known `type` and the fields that type requires (T7). */
export function expectContentBlock(rev: Revision, block: Obj): void {
  const types = ['text', 'image', 'resource'];
  if (rev >= '2025-03-26') types.push('audio');
  if (rev >= '2025-06-18') types.push('resource_link');
  expect(types).toContain(block.type);
  switch (block.type) {
    case 'text':
      expect(typeof block.text).toBe('string');
      break;
    case 'image':
    case 'audio':
      expect(typeof block.mimeType).toBe('string');
      expect(String(block.data)).toMatch(BASE64);
      expect(String(block.data).length % 4).toBe(0);
      break;
    case 'resource_link':
      expect(typeof block.uri).toBe('string');
      expect(typeof block.name).toBe('string');
      break;
    case 'resource': {
      const resource = block.resource as Obj;
      expect(typeof resource.uri).toBe('string');
      expect(('text' in resource ? 1 : 0) + ('blob' in resource ? 1 : 0)).toBe(1);
      break;
    }
  }
}

/** Argument values that satisfy a simple JSON Schema: defaults, then enums, then a plain value. */
export function sampleArgs(schema: Obj | undefined): Obj {
  const properties = (schema?.properties ?? {}) as Record<string, Obj>;
  const required = (schema?.required ?? []) as string[];
  const args: Obj = {};
  for (const name of required) args[name] = sampleValue(name, properties[name] ?? {});
  return args;
}

function sampleValue(name: string, schema: Obj): unknown {
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const oneOf = (schema.oneOf ?? schema.anyOf) as Obj[] | undefined;
  if (oneOf?.[0]) return sampleValue(name, oneOf[0]);
  switch (schema.type) {
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'array':
      return [];
    case 'object':
      return sampleArgs(schema);
    default:
      return /city|location|place/i.test(name) ? 'Oslo' : 'protocol suite';
  }
}

/** An elicitation answer for a form: every property filled, booleans true (i.e. "yes, go ahead"). */
export function fillForm(requestedSchema: Obj | undefined): Obj {
  const properties = (requestedSchema?.properties ?? {}) as Record<string, Obj>;
  const content: Obj = {};
  for (const [name, schema] of Object.entries(properties)) {
    content[name] = schema.type === 'boolean' ? true : sampleValue(name, schema);
  }
  return content;
}

/** `text` parsed as JSON, or undefined. */
export function tryJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
