// @ts-check
// Tests of scripts/lib/doc-cwd.mjs; run with `node --test scripts/lib/`. The fixture is the shape of
// doc/WORKSHOP.md's modules 2 and 3 before the fix: module 2's step 3 ran `cd services/mcp-server`
// and never came back, so module 3's `pnpm new-tool` failed for a reader with
// `Command "new-tool" not found`, while check-docs, which ran each block from the root, passed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cdEffect, topLevelCommands, workingDirProblems } from './doc-cwd.mjs';
import { blockOption, blockText, isRunnable, parseMarkdownText } from './doc-markdown.mjs';

const fence = '```';

const MODULES_2_AND_3 = `# The workshop

## 2. The result contract

1. With \`pnpm start\` running, compare a success and two failures:

   ${fence}sh runnable id=result-failures stack
   curl -s -w '\\n' -X POST http://127.0.0.1:3000/tools/calculate -H 'content-type: application/json' -d '{"expression":"1/0"}'
   ${fence}

3. Try to break the rule. From \`services/mcp-server\`, after \`pnpm build\`:

   ${fence}sh runnable id=result-rules
   cd services/mcp-server
   node --input-type=module -e "
   import { ok } from '@mcp-workshop/shared';
   try { ok([1, 2]); } catch (e) { console.log(e.name + ': ' + e.message); }
   "
   ${fence}

**Checkpoint**

${fence}sh
pnpm --filter @mcp-workshop/shared test
${fence}

## 3. Add a tool

${fence}sh runnable scratch=module-3 id=new-tool
pnpm new-tool echo_text
${fence}
`;

/** The problems check-docs reports for `markdown`, as "line: message". */
function problemsOf(markdown) {
  const doc = parseMarkdownText(markdown);
  const { problems } = workingDirProblems(doc, {
    text: blockText,
    option: blockOption,
    runnable: isRunnable,
  });
  return problems.map((p) => `${p.line}: ${p.message}`);
}

describe('workingDirProblems', () => {
  it('fails on module 2 as it was: its cd leaves the shell where the next block and module 3 do not expect it', () => {
    const problems = problemsOf(MODULES_2_AND_3);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(
      problems[0] ?? '',
      /^14: `cd services\/mcp-server` leaves a reader's shell in services\/mcp-server/,
    );
    assert.match(problems[0] ?? '', /the next block \(line 23\) is written for the repository root/);
    assert.match(problems[0] ?? '', /\(cd services\/mcp-server && …\)/);
  });

  it('says where a section ends outside the root when no block follows in it', () => {
    const markdown = MODULES_2_AND_3.replace(/\*\*Checkpoint\*\*[\s\S]*?(?=## 3)/, '');
    const problems = problemsOf(markdown);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(
      problems[0] ?? '',
      /at the end of its section; the next, "3\. Add a tool" \(line \d+\), starts from the repository root/,
    );
  });

  it('passes module 2 as it is now: the cd in a subshell', () => {
    const fixed = MODULES_2_AND_3.replace(
      /cd services\/mcp-server\n( *)node --input-type=module -e "([\s\S]*?)\n( *)"\n/,
      '(cd services/mcp-server && node --input-type=module -e "$2\n$3")\n',
    );
    assert.notEqual(fixed, MODULES_2_AND_3);
    assert.deepEqual(problemsOf(fixed), []);
  });

  it('passes a cd that comes back, and a block marked cwd= that runs where the one before left it', () => {
    assert.deepEqual(
      problemsOf(
        MODULES_2_AND_3.replace('   cd services/mcp-server\n', '   cd services/mcp-server\n   cd ../..\n'),
      ),
      [],
    );
    const marked = `${fence}sh runnable\ncd services/mcp-server\n${fence}\n\n${fence}sh cwd=services/mcp-server\nnpx vitest run\ncd -\n${fence}\n`;
    assert.deepEqual(problemsOf(marked), []);
    const wrongly = `${fence}sh runnable\npnpm build\n${fence}\n\n${fence}sh cwd=services/mcp-server\nnpx vitest run\n${fence}\n`;
    assert.match(
      problemsOf(wrongly)[0] ?? '',
      /marked `cwd=services\/mcp-server`, but the blocks before it leave a reader's shell in the repository root/,
    );
  });

  it('refuses a cd whose folder the text does not give', () => {
    const problems = problemsOf(`${fence}sh runnable\ncd "$(mktemp -d)"\nls\n${fence}\n`);
    assert.equal(problems.length, 1);
    assert.match(problems[0] ?? '', /^2: `cd "\$\(mktemp -d\)"`: no one can tell/);
  });

  it('leaves docs without runnable blocks alone: nobody runs them in order', () => {
    assert.deepEqual(problemsOf(`${fence}sh\ncd services/mcp-server && npx vitest run\n${fence}\n`), []);
  });
});

describe('cdEffect', () => {
  it('follows top-level cd, pushd and popd, relative to the root', () => {
    assert.equal(cdEffect('cd services/mcp-server').end, 'services/mcp-server');
    assert.equal(
      cdEffect('cd services/mcp-server && npx vitest run\ncd ../../packages/mcp-host').end,
      'packages/mcp-host',
    );
    assert.equal(cdEffect("cd 'services/agent'; cd ../..").end, '.');
    assert.equal(cdEffect('pushd services/agent\npnpm build\npopd').end, '.');
    assert.equal(cdEffect('cd /tmp\ncd -').end, '.');
    assert.equal(cdEffect('cd ..').end, '..');
    assert.equal(cdEffect('if cd dev; then ls; fi').end, 'dev');
    assert.equal(cdEffect('npx vitest run', 'services/mcp-server').end, 'services/mcp-server');
  });

  it('does not count a cd that runs in a subshell', () => {
    for (const script of [
      '(cd services/mcp-server && npx vitest run)',
      '( cd /tmp && mv before a ) > patches/x.patch',
      'DIR=$(cd services && pwd)',
      'echo "$(cd services; pwd)"',
      'echo `cd services; pwd`',
      'cd services | cat',
      'cd services &',
      "echo 'cd services'",
      '# cd services',
      'node -e "\ncd services\n"',
      'cat <<EOF\ncd services\nEOF',
    ]) {
      assert.equal(cdEffect(script).end, '.', script);
    }
  });

  it('reads a multi-line command as one, and gives each command its first line', () => {
    const commands = topLevelCommands('curl -s \\\n  http://x\nnode -e "\na\n" && cd dev\n');
    assert.deepEqual(
      commands.map((c) => [c.line, c.words[0]]),
      [
        [1, 'curl'],
        [3, 'node'],
        [5, 'cd'],
      ],
    );
  });
});
