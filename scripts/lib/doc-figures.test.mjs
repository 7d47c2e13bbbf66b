// @ts-check
// Tests of scripts/lib/doc-figures.mjs; run with `node --test scripts/lib/`. The failing cases are
// the figures that went stale before these rules: the README's "modules 0–13" once module 14
// existed, module 1's log with "tools":9 once the server had ten, and the README's table of tools
// without `task_board_refresh`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  moduleCountProblems,
  toolCountProblems,
  toolTableProblems,
  workshopModules,
} from './doc-figures.mjs';
import { parseMarkdownText } from './doc-markdown.mjs';

const prose = (markdown) => parseMarkdownText(markdown).prose;
const WORKSHOP = prose(
  ['# The workshop', '', 'Fifteen modules of 15 to 30 minutes.', '']
    .concat(Array.from({ length: 15 }, (_, n) => `## ${n}. Module ${n}\n\ntext\n`))
    .join('\n'),
);
const MODULES = workshopModules(WORKSHOP);

describe('moduleCountProblems', () => {
  it('reads the modules from the ## N. headings', () => {
    assert.equal(MODULES.length, 15);
    assert.equal(Math.max(...MODULES), 14);
    assert.deepEqual(moduleCountProblems(WORKSHOP, MODULES, { counts: true }), []);
  });

  it('fails on a range that stops short, as the README once said', () => {
    const problems = moduleCountProblems(
      prose('| doc | **Start with the workshop** (modules 0–13), then |'),
      MODULES,
    );
    assert.deepEqual(problems, [{ line: 1, message: '"modules 0–13": doc/WORKSHOP.md has modules 0–14' }]);
    assert.deepEqual(moduleCountProblems(prose('see modules 0-14'), MODULES), []);
    assert.deepEqual(moduleCountProblems(prose('modules 1–3 start the stack'), MODULES), []);
  });

  it('in doc/WORKSHOP.md, fails on a count in words or digits, and leaves other words alone', () => {
    const counts = { counts: true };
    assert.equal(
      moduleCountProblems(prose('Fourteen modules of 15 to 30 minutes.'), MODULES, counts).length,
      1,
    );
    assert.equal(moduleCountProblems(prose('All 14 modules.'), MODULES, counts).length, 1);
    assert.deepEqual(
      moduleCountProblems(prose('later modules assume it; small modules load fast'), MODULES, counts),
      [],
    );
  });

  it('elsewhere, leaves counts alone: the "four modules" of an ADR are code', () => {
    assert.deepEqual(moduleCountProblems(prose('The reload touches four modules.'), MODULES), []);
  });
});

describe('toolCountProblems', () => {
  const log = (tools) =>
    parseMarkdownText(
      [
        '```text',
        `@mcp-workshop/agent:start: {"level":30,"service":"agent","server":"workshop","target":"http://127.0.0.1:3000/mcp","era":"modern","tools":${tools},"msg":"connected to MCP server"}`,
        '```',
      ].join('\n'),
    ).blocks;

  it('fails on the agent log of module 1 as it was, with 9 tools of 10', () => {
    assert.deepEqual(toolCountProblems(log(9), 10), [
      {
        line: 2,
        message: 'the agent\'s log says "tools":9, but the built server registers 10 tools: quote a real run',
      },
    ]);
    assert.deepEqual(toolCountProblems(log(10), 10), []);
  });

  it('leaves other servers and other lines alone', () => {
    const other = parseMarkdownText(
      '```text\n{"server":"weather","tools":3,"msg":"connected to MCP server"}\n{"tools":9}\n```',
    ).blocks;
    assert.deepEqual(toolCountProblems(other, 10), []);
  });
});

describe('toolTableProblems', () => {
  const TOOLS = new Set(['get_weather', 'list_tasks', 'task_board_refresh']);
  const table = (...rows) =>
    prose(['The tools:', '', '| tool | what it does |', '|---|---|', ...rows, '', 'After.'].join('\n'));

  it('fails on a table of tools that leaves one out, as the README did task_board_refresh', () => {
    const problems = toolTableProblems(
      table('| `get_weather { location, days? }` | the weather |', '| `add_task`, `list_tasks` | tasks |'),
      TOOLS,
    );
    assert.equal(problems.length, 1);
    assert.equal(problems[0].line, 3);
    assert.match(problems[0].message, /leaves out `task_board_refresh`/);
  });

  it('passes a table that names every tool, and ignores other tables', () => {
    assert.deepEqual(
      toolTableProblems(
        table('| `get_weather { location }` | x |', '| `list_tasks`, `task_board_refresh` | y |'),
        TOOLS,
      ),
      [],
    );
    assert.deepEqual(
      toolTableProblems(prose('| scope | tools |\n|---|---|\n| `tasks:read` | `list_tasks` |'), TOOLS),
      [],
    );
  });
});
