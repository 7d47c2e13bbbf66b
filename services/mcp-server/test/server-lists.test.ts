/**
 * What a client sees of `createMcpServer` before it calls anything: `tools/list`, `prompts/list`
 * and `resources/templates/list`. The workshop's own tools, prompts and templates are compared byte
 * for byte with `__snapshots__/server-lists.json.snap`, which was recorded before the schemas were
 * cached (see `tools/cached-schema.ts`), so a caching bug or an accidental schema change shows up
 * here. A tool the snapshot does not know (yours, from `pnpm new-tool`) is left out of that
 * comparison and checked by its shape instead, so adding one needs no snapshot update. After a
 * deliberate change to a workshop tool, prompt or template, rerun with `vitest run -u` (it records
 * every registered tool) and review the diff: it is exactly what every client and model will see.
 * Partner: `src/server.ts`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { connectRaw, type RawRpc } from '@mcp-workshop/mcp-host/in-process';
import { REQUIRED_SCOPES_META_KEY } from '@mcp-workshop/mcp-host/kit';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES_SUPPORTED } from '../src/deps.js';
import { testDeps } from '../src/test-support/in-memory.js';
import { createMcpServer } from '../src/test-support/server.js';
import { tools } from '../src/tools/index.js';

const LIST_METHODS = ['tools/list', 'prompts/list', 'resources/templates/list'] as const;
const SNAPSHOT = './__snapshots__/server-lists.json.snap';
const SNAPSHOT_PATH = fileURLToPath(new URL(SNAPSHOT, import.meta.url));
const TOOLS_DIR = fileURLToPath(new URL('../src/tools/', import.meta.url));
/** The names `pnpm new-tool` accepts: snake_case, so the file name is the name with dashes. */
const TOOL_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** One entry of a `tools/list` answer, as far as these tests read it. */
interface ListedTool {
  name: string;
  title?: unknown;
  description?: unknown;
  inputSchema?: { type?: unknown; properties?: Record<string, { description?: unknown }> };
  outputSchema?: { type?: unknown };
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

type Lists = Record<(typeof LIST_METHODS)[number], Record<string, unknown>>;

const listedTools = (lists: Lists) => (lists['tools/list'].tools ?? []) as ListedTool[];

/**
 * The tools the snapshot records, which are the workshop's own. Undefined when every tool is to be
 * recorded: there is no snapshot yet, or `vitest run -u` is rewriting it.
 */
function recordedToolNames(): ReadonlySet<string> | undefined {
  if (expect.getState().snapshotState.snapshotUpdateState === 'all' || !existsSync(SNAPSHOT_PATH)) {
    return undefined;
  }
  const recorded = JSON.parse(readFileSync(SNAPSHOT_PATH, 'utf8')) as Partial<Lists>;
  const names = ((recorded['tools/list']?.tools ?? []) as ListedTool[]).map((tool) => tool.name);
  return new Set(names);
}

/** `lists` with only the recorded tools, in their order; every other byte is left as the server sent it. */
function onlyRecordedTools(lists: Lists, recorded: ReadonlySet<string> | undefined): Lists {
  if (!recorded) return lists;
  const toolsList = lists['tools/list'];
  const kept = listedTools(lists).filter((tool) => recorded.has(tool.name));
  return { ...lists, 'tools/list': { ...toolsList, tools: kept } };
}

/** What to do when the snapshot test fails: printed before the diff, so nobody has to guess. */
const RECORD_HINT =
  'is not as recorded in __snapshots__/server-lists.json.snap. If you changed it on purpose (e.g. gave a ' +
  'workshop tool a view), record it with `pnpm --filter @mcp-workshop/mcp-server exec vitest run ' +
  'test/server-lists.test.ts -u` and review its diff: it is exactly what every client and model will see. ' +
  'What changed is in the snapshot diff below';

/**
 * What of `lists` (the recorded tools only) differs from the snapshot, e.g. `list_cities` or
 * `get_time (no longer registered)`; empty when it matches or when nothing is recorded.
 */
function changedSinceRecorded(lists: Lists, recorded: ReadonlySet<string> | undefined): string[] {
  if (!recorded) return [];
  const snapshot = JSON.parse(readFileSync(SNAPSHOT_PATH, 'utf8')) as Lists;
  if (JSON.stringify(onlyRecordedTools(lists, recorded)) === JSON.stringify(snapshot)) return [];
  const now = new Map(listedTools(lists).map((tool) => [tool.name, JSON.stringify(tool)]));
  const tools = listedTools(snapshot).flatMap((tool) => {
    const listed = now.get(tool.name);
    if (listed === undefined) return [`${tool.name} (no longer registered)`];
    return listed === JSON.stringify(tool) ? [] : [tool.name];
  });
  return tools.length > 0 ? tools : ['the prompts, the templates or the order of the tools'];
}

async function fetchLists(rpc: RawRpc): Promise<Lists> {
  const lists: Partial<Lists> = {};
  for (const method of LIST_METHODS) lists[method] = await rpc.request(method);
  return lists as Lists;
}

describe('createMcpServer lists', () => {
  let rpc: RawRpc | undefined;
  afterEach(async () => rpc?.close());

  it('answers tools/list, prompts/list and resources/templates/list as recorded for the workshop’s own', async () => {
    rpc = await connectRaw(createMcpServer(testDeps()));
    const recorded = recordedToolNames();
    const first = await fetchLists(rpc);
    // The second answer comes from the caches the first one filled: the same bytes, every tool included.
    const second = await fetchLists(rpc);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    const changed = changedSinceRecorded(first, recorded);
    expect.soft(changed, `The listing of ${changed.join(', ')} ${RECORD_HINT}`).toEqual([]);
    for (const lists of [first, second]) {
      // Indented for a readable diff; the key order, which is the byte order, is kept.
      await expect(`${JSON.stringify(onlyRecordedTools(lists, recorded), null, 2)}\n`).toMatchFileSnapshot(
        SNAPSHOT,
      );
    }
  });

  it('answers the same from a second server instance, which shares the first one’s caches', async () => {
    const first = await connectRaw(createMcpServer(testDeps()));
    const expected = await Promise.all(LIST_METHODS.map((method) => first.request(method)));
    await first.close();
    rpc = await connectRaw(createMcpServer(testDeps()));
    const again = await Promise.all(LIST_METHODS.map((method) => rpc?.request(method)));
    expect(JSON.stringify(again)).toBe(JSON.stringify(expected));
  });
});

// The shape every tool must have, the workshop's and a new one the snapshot does not know yet.
describe('each tool of tools/index.ts in tools/list', () => {
  let listed: ListedTool[] = [];
  beforeAll(async () => {
    const rpc = await connectRaw(createMcpServer(testDeps()));
    try {
      listed = listedTools(await fetchLists(rpc));
    } finally {
      await rpc.close();
    }
  });

  it('lists exactly the registered tools, each once', () => {
    expect(listed.map((tool) => tool.name).sort()).toEqual(tools.map((tool) => tool.name).sort());
  });

  it.each(tools.map((tool) => tool.name))(
    '%s is declared in its own file and listed with a description, described fields and object schemas',
    (name) => {
      const matches = listed.filter((tool) => tool.name === name);
      expect(matches, `${name} must be listed exactly once`).toHaveLength(1);
      const tool = matches[0] as ListedTool;

      expect(name, `${name}: a tool name is snake_case, e.g. echo_text`).toMatch(TOOL_NAME);
      const file = `${name.replaceAll('_', '-')}.ts`;
      const source = existsSync(`${TOOLS_DIR}${file}`) ? readFileSync(`${TOOLS_DIR}${file}`, 'utf8') : '';
      expect(source, `${name} must be declared in src/tools/${file}, with name: '${name}'`).toMatch(
        new RegExp(`\\bname:\\s*['"]${name}['"]`),
      );

      expect(typeof tool.title === 'string' && tool.title.trim() !== '', `${name}: a title`).toBe(true);
      expect(
        typeof tool.description === 'string' && tool.description.trim() !== '',
        `${name}: a description, written for the model`,
      ).toBe(true);

      expect(tool.inputSchema?.type, `${name}: inputSchema must be an object schema`).toBe('object');
      for (const [field, schema] of Object.entries(tool.inputSchema?.properties ?? {})) {
        expect(
          typeof schema.description === 'string' && schema.description.trim() !== '',
          `${name}: input field "${field}" needs a .describe(): the model reads it`,
        ).toBe(true);
      }
      if (tool.outputSchema !== undefined) {
        expect(tool.outputSchema.type, `${name}: outputSchema must be an object schema`).toBe('object');
      }

      for (const hint of HINTS) {
        expect(typeof tool.annotations?.[hint], `${name}: annotations.${hint} must be true or false`).toBe(
          'boolean',
        );
      }
      const scopes = tool._meta?.[REQUIRED_SCOPES_META_KEY];
      const scopesKey = `_meta["${REQUIRED_SCOPES_META_KEY}"]`;
      expect(Array.isArray(scopes), `${name}: ${scopesKey} must be a list`).toBe(true);
      for (const scope of scopes as unknown[]) {
        const refused = `${name}: ${scopesKey} names ${String(scope)}, a scope this server never grants`;
        expect(SCOPES_SUPPORTED, refused).toContain(scope);
      }
    },
  );
});
