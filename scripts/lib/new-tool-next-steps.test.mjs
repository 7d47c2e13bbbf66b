// What `pnpm new-tool` tells a participant to do next, checked against what happens: its "Next
// steps" send them to `pnpm dev` and `pnpm eval`, the example question printed for a `--view` tool
// makes the offline demo model call that tool, with a plain scaffolded tool beside it (modules 3
// and 14 in order), and so does the example case each scaffold writes in its `.eval.yaml`. Runs in a scratch copy; needs the built demo model (`pnpm build`). Run with
// `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { makeScratchCopy, removeScratchCopy } from './scratch-copy.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = 'services/mcp-server';
const DEMO_MODEL = path.join(ROOT, 'services/demo-model/dist/lib.js');
const PLAIN = 'echo_text';
const VIEW = 'echo_card';
/** Module 3's question for the plain scaffold (doc/WORKSHOP.md). */
const PLAIN_QUESTION = 'Count the characters of the text "hello world"';
/** Safety nets for a loaded 2-core machine (a view build, a vitest start), not expectations. */
const RUN_TIMEOUT_MS = 5 * 60_000;
const SUITE_TIMEOUT_MS = 15 * 60_000;

/** A vitest file dropped into the copy: writes what tools/list shows, every page, to TOOLS_OUT. */
const LIST_TOOLS_PROBE = `import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { connectInMemory, testDeps } from './test-support/in-memory.js';

it('writes tools/list', async () => {
  const conn = await connectInMemory(testDeps());
  const tools = [];
  let cursor;
  do {
    const page = await conn.client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  await conn.close();
  writeFileSync(process.env.TOOLS_OUT, JSON.stringify(tools));
});
`;

function run(dir, command, args, env = {}) {
  const result = spawnSync(command, args, {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, output: `${result.stdout}\n${result.stderr}` };
}

/** @typedef {{ content?: string, tool_calls?: Array<{ function: { name: string, arguments: string } }> }} ChatMessage */

/** The steps after "Next steps:" in new-tool's output. */
const nextSteps = (stdout) => stdout.slice(stdout.indexOf('Next steps:'));

describe('pnpm new-tool, then its next steps', { timeout: SUITE_TIMEOUT_MS }, () => {
  let dir;
  let plain;
  let view;
  let tools;
  let demo;

  before(async () => {
    assert.ok(fs.existsSync(DEMO_MODEL), `${DEMO_MODEL} is missing: run \`pnpm build\` first`);
    dir = makeScratchCopy(ROOT);
    plain = run(dir, process.execPath, ['scripts/new-tool.mjs', PLAIN]);
    assert.equal(plain.status, 0, plain.output);
    view = run(dir, process.execPath, ['scripts/new-tool.mjs', VIEW, '--view']);
    assert.equal(view.status, 0, view.output);
    const probe = path.join(dir, SERVER, 'src/list-tools.probe.test.ts');
    fs.writeFileSync(probe, LIST_TOOLS_PROBE);
    const out = path.join(dir, 'tools.json');
    const listed = run(
      path.join(dir, SERVER),
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', 'src/list-tools.probe.test.ts'],
      { TOOLS_OUT: out },
    );
    assert.equal(listed.status, 0, listed.output);
    tools = JSON.parse(fs.readFileSync(out, 'utf8'));
    const { startDemoModel } = await import(DEMO_MODEL);
    demo = await startDemoModel({ port: 0 });
  });

  after(async () => {
    await demo?.close();
    if (dir) removeScratchCopy(dir);
  });

  /** The tool the demo model calls first for `question`, offered the copy's whole catalogue over HTTP. */
  async function firstToolCalled(question) {
    const response = await fetch(`${demo.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'any',
        messages: [{ role: 'user', content: question }],
        tools: tools.map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
        })),
      }),
    });
    assert.equal(response.status, 200);
    const body = /** @type {{ choices: Array<{ message: ChatMessage }> }} */ (await response.json());
    const message = body.choices[0]?.message;
    const [call] = message?.tool_calls ?? [];
    assert.ok(call, `no tool call for ${question}: ${message?.content}`);
    return { name: call.function.name, arguments: JSON.parse(call.function.arguments) };
  }

  it('sends both kinds of scaffold to pnpm dev, which reloads on save, not to a restart', () => {
    for (const { stdout } of [plain, view]) {
      const steps = nextSteps(stdout);
      assert.match(steps, /with pnpm dev running \(.*no restart\)/);
      assert.doesNotMatch(steps, /pnpm start/);
    }
  });

  it('prints an example question for the view tool that the demo model answers with that tool', async () => {
    // The question is the line after "e.g.", without the sentence about the chat page if it shares the line.
    const question = /ask for it, e\.g\.\n\s+(.+)\n/
      .exec(view.stdout)?.[1]
      ?.replace(/\s*The chat page .*$/, '');
    assert.ok(question, view.stdout);
    assert.ok(
      tools.some((tool) => tool.name === PLAIN),
      'the plain tool is listed beside the view tool',
    );
    assert.deepEqual(await firstToolCalled(question), { name: VIEW, arguments: { text: 'hello world' } });
  });

  it('sends both kinds of scaffold to pnpm eval, with an example case the demo model passes', async () => {
    for (const [name, file, { stdout }] of [
      [PLAIN, 'echo-text', plain],
      [VIEW, 'echo-card', view],
    ]) {
      assert.match(nextSteps(stdout), /then: pnpm eval/);
      const cases = parseYaml(fs.readFileSync(path.join(dir, SERVER, `src/tools/${file}.eval.yaml`), 'utf8'));
      const [example] = cases.cases;
      const chosen = await firstToolCalled(example.ask);
      assert.equal(chosen.name, name, example.ask);
      assert.match(chosen.arguments.text, /hello world/i, example.ask);
    }
  });

  it('still answers module 3’s question with the plain tool, the view tool beside it', async () => {
    assert.deepEqual(await firstToolCalled(PLAIN_QUESTION), {
      name: PLAIN,
      arguments: { text: 'hello world' },
    });
  });
});
