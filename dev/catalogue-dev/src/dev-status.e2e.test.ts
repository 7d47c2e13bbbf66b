/**
 * `catalogue-dev` as a process on a scratch copy, with its background type check on: `/health`
 * says it is a reloading dev server; a save that does not parse is there with its file:line until
 * the next good save, and clients hear list_changed for it although no list changed; a save that
 * parses but has a type error reloads at once, and the type check then names the file:line, on
 * `/health` and in the terminal, until it is fixed. Waits are for events (what `/health` says, a
 * notification heard), with generous safety nets only.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@mcp-workshop/test-infra';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevStatusBlock } from './dev-status.js';
import { type ScratchDev, startDevOnScratchCopy } from './scratch.js';

const CATALOGUE = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../services/mcp-server');
/** Safety net only: the first full type check of the catalogue takes a while on a busy machine. */
const GIVE_UP_MS = 240_000;

/** A tool of this test's own, so no file of the participant's catalogue is assumed. */
const SCRATCH_TOOL = `import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool } from '../deps.js';

export const devStatusProbe = defineTool({
  name: 'dev_status_probe',
  title: 'Dev status probe',
  description: 'Says a text back. Returns { text }.',
  input: z.object({ text: z.string().max(100).describe('What to say back.') }),
  output: z.object({ text: z.string().describe('The same text.') }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ text }) {
    return ok({ text });
  },
});
`;
const TOOL_FILE = 'src/tools/dev-status-probe.ts';

let dev: ScratchDev;
let healthUrl = '';

async function dev_(): Promise<DevStatusBlock> {
  const health = (await (await fetch(healthUrl)).json()) as { dev: DevStatusBlock };
  return health.dev;
}

async function until<T>(read: () => Promise<T> | T, holds: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + GIVE_UP_MS;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`gave up waiting for ${what}: ${JSON.stringify(value)}\n${dev.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The type check's verdict, or undefined while it checks. */
const verdict = (block: DevStatusBlock) =>
  block.typecheck.state === 'passed' || block.typecheck.state === 'failed'
    ? block.typecheck.state
    : undefined;
/** The type errors the check found in this test's own file. */
const ownErrors = (block: DevStatusBlock) =>
  block.typecheck.state === 'failed'
    ? block.typecheck.errors.filter((error) => error.file === TOOL_FILE)
    : [];

beforeAll(async () => {
  dev = await startDevOnScratchCopy(CATALOGUE, await freePort(), {
    PATH: process.env.PATH ?? '',
    CATALOGUE_DEV_TYPECHECK: 'true',
  });
  healthUrl = new URL('/health', dev.mcpUrl).href;
}, GIVE_UP_MS);

afterAll(async () => {
  await dev?.stop();
});

describe('pnpm dev: the dev block of /health', { timeout: GIVE_UP_MS + 60_000 }, () => {
  it('says it reloads, before any save, and gives the first type check its verdict', async () => {
    expect(await dev_()).toMatchObject({ reloading: true, lastReload: null });
    const first = await until(dev_, (block) => verdict(block) !== undefined, 'the first type check');
    // Whatever the catalogue as it is holds: this test's own errors are the ones checked below.
    expect(dev.log()).toContain(
      first.typecheck.state === 'passed' ? 'type check: no errors' : 'type check: ',
    );
  });

  it('keeps a save that does not parse, with its file:line, announces it with list_changed, and clears it on the fix', async () => {
    dev.addTool('dev-status-probe', 'devStatusProbe', SCRATCH_TOOL);
    await until(dev_, (block) => block.lastReload?.outcome === 'reloaded', 'the good save');
    const heard: string[] = [];
    /** What /health said when read on hearing each tools/list_changed, in the order heard. */
    const readOnHearing: Array<Promise<DevStatusBlock['lastReload']>> = [];
    const client = new Client({ name: 'dev-status-test', version: '0' });
    client.fallbackNotificationHandler = async (notification) => {
      heard.push(notification.method);
      if (notification.method === 'notifications/tools/list_changed')
        readOnHearing.push(dev_().then((block) => block.lastReload));
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(dev.mcpUrl)));
    try {
      dev.save(TOOL_FILE, SCRATCH_TOOL.replace('return ok({ text });', 'return ok({{ text });'));
      const failed = await until(dev_, (block) => block.lastReload?.outcome === 'failed', 'the failed save');
      expect(failed.lastReload).toMatchObject({
        outcome: 'failed',
        files: [TOOL_FILE],
        message: expect.stringMatching(/\S/),
        place: { file: TOOL_FILE, line: 13 },
      });
      await until(
        () => heard,
        (methods) => methods.includes('notifications/tools/list_changed'),
        'list_changed after the failed save',
      );
      // The last good catalogue still serves the tool.
      const answer = await client.callTool({ name: 'dev_status_probe', arguments: { text: 'still here' } });
      expect(answer.structuredContent).toEqual({ text: 'still here' });
      // The fix: whoever reads /health on hearing its list_changed reads this save, not the failed
      // one. An announcement of the failed save may still be on its way (the type check's verdict,
      // a second watch event for the same save): those read the failed save, and are passed over.
      const before = readOnHearing.length;
      const fixedAt = new Date().toISOString();
      dev.save(TOOL_FILE, SCRATCH_TOOL);
      const reads = await until(
        () => Promise.all(readOnHearing.slice(before)),
        (found) => found.some((lastReload) => lastReload?.outcome === 'reloaded'),
        'a list_changed after the fix whose /health reads the fix',
      );
      expect(
        reads.every((lastReload) => lastReload?.outcome === 'reloaded' || lastReload?.outcome === 'failed'),
      ).toBe(true);
      expect((await dev_()).lastReload?.outcome).toBe('reloaded');
      // The type check has caught up with the fix, so the next test's errors are its own.
      await until(
        dev_,
        (block) =>
          (block.typecheck.state === 'passed' || block.typecheck.state === 'failed') &&
          block.typecheck.at > fixedAt &&
          ownErrors(block).length === 0,
        'the type check of the fix',
      );
    } finally {
      await client.close();
    }
  });

  it('reloads a save with a type error at once, then names it on /health and in the terminal until fixed', async () => {
    // Parses, loads and serves; only the type check sees that a text is no number (line 13).
    dev.save(
      TOOL_FILE,
      SCRATCH_TOOL.replace(
        'return ok({ text });',
        'const wrong: number = text;\n    return ok({ text: String(wrong) });',
      ),
    );
    const reloaded = await until(dev_, (block) => block.lastReload?.outcome === 'reloaded', 'the reload');
    expect(reloaded.lastReload?.files).toEqual([TOOL_FILE]);
    const failed = await until(dev_, (block) => ownErrors(block).length > 0, 'the type error');
    expect(failed.typecheck.state).toBe('failed');
    expect(ownErrors(failed)).toEqual([
      expect.objectContaining({
        file: TOOL_FILE,
        line: 13,
        code: 'TS2322',
        message: expect.stringContaining('number'),
      }),
    ]);
    expect(dev.log()).toMatch(
      /type check: \d+ errors? .*\n(\s+.*\n)*\s+src\/tools\/dev-status-probe\.ts:13:\d+ TS2322:/,
    );

    dev.save(TOOL_FILE, SCRATCH_TOOL);
    // The verdict after the fix no longer names this file (the catalogue may have errors of its own).
    await until(dev_, (block) => verdict(block) !== undefined && ownErrors(block).length === 0, 'the fix');
  });
});
