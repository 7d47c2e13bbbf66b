import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CaseFileError, findCaseFiles, loadCases, MAX_CASE_FILE_BYTES, parseCaseFile } from './cases.js';

const parse = (text: string) => parseCaseFile(text, 'tools/x.eval.yaml');

describe('parseCaseFile', () => {
  it("reads a file's tool as every case's default, with ids by position", () => {
    const cases = parse(`
tool: get_weather
cases:
  - ask: Weather in Oslo?
    args: { location: { mentions: Oslo } }
  - ask: Thanks!
    expect: none
  - ask: Add milk, then list
    expect: [add_task, list_tasks]
    args: [{ title: { mentions: milk } }]
`);
    expect(cases.map((item) => item.id)).toEqual(['get_weather#1', 'get_weather#2', 'get_weather#3']);
    expect(cases[0]?.steps).toEqual([{ tool: 'get_weather', args: { location: { mentions: 'Oslo' } } }]);
    expect(cases[1]?.steps).toEqual([]);
    expect(cases[2]?.steps).toEqual([
      { tool: 'add_task', args: { title: { mentions: 'milk' } } },
      { tool: 'list_tasks', args: {} },
    ]);
    expect(cases[0]?.file).toBe('tools/x.eval.yaml');
  });

  it('names ids after the file when it has no tool', () => {
    const [only] = parseCaseFile('cases:\n  - ask: Hi\n    expect: none\n', 'a/no-tool.eval.yaml');
    expect(only?.id).toBe('no-tool#1');
  });

  it.each([
    ['not YAML', 'cases: [', /not valid YAML/],
    ['no cases', 'tool: x\ncases: []\n', /at least one case/],
    ['an unknown key', 'tool: x\ncases:\n  - ask: q\n    expected: y\n', /expected/],
    ['an empty question', 'tool: x\ncases:\n  - ask: "  "\n', /write the question/],
    ['no tool and no expect', 'cases:\n  - ask: q\n', /say expect:, or name the file's tool/],
    ['more args than steps', 'tool: x\ncases:\n  - ask: q\n    args: [{}, {}]\n', /2 entries for 1 expected/],
    [
      'a bad regular expression',
      'tool: x\ncases:\n  - ask: q\n    args: { a: { matches: "(" } }\n',
      /a: matches/,
    ],
    ['a duplicate key', 'tool: x\ntool: y\ncases:\n  - ask: q\n', /not valid YAML/],
    ['a list for a file', '- ask: q\n', /expected object/i],
  ])('refuses %s, naming the file', (_what, text, message) => {
    expect(() => parse(text)).toThrow(CaseFileError);
    expect(() => parse(text)).toThrow(message);
    expect(() => parse(text)).toThrow(/tools\/x\.eval\.yaml/);
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      ...Array.from({ length: 8 }, (_, i) => {
        const prev = i === 0 ? 'a' : `b${i - 1}`;
        return `b${i}: &b${i} [${Array(10).fill(`*${prev}`).join(',')}]`;
      }),
      'tool: x',
      'cases: [{ ask: q }]',
    ].join('\n');
    expect(() => parse(bomb)).toThrow(CaseFileError);
  });

  it('refuses an over-long question', () => {
    expect(() => parse(`tool: x\ncases:\n  - ask: "${'a'.repeat(4_001)}"\n`)).toThrow(CaseFileError);
  });
});

describe('findCaseFiles and loadCases', () => {
  let root = '';
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = '';
  });

  it('finds *.eval.yaml in folders, skipping node_modules and dist, and refuses a missing path', () => {
    root = mkdtempSync(join(tmpdir(), 'eval-cases-'));
    for (const folder of ['tools', 'node_modules/x', 'dist'])
      mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, 'tools/a.eval.yaml'), 'tool: a\ncases: [{ ask: q }]\n');
    writeFileSync(join(root, 'tools/a.ts'), '');
    writeFileSync(join(root, 'node_modules/x/b.eval.yaml'), '');
    writeFileSync(join(root, 'dist/c.eval.yaml'), '');
    expect(findCaseFiles([root])).toEqual([join(root, 'tools/a.eval.yaml')]);
    expect(() => findCaseFiles([join(root, 'missing')])).toThrow(/no such file or folder/);
    expect(loadCases(findCaseFiles([root]), root).map((item) => item.file)).toEqual(['tools/a.eval.yaml']);
  });

  it('refuses two files that would give the same case ids, and an oversized file', () => {
    root = mkdtempSync(join(tmpdir(), 'eval-cases-'));
    writeFileSync(join(root, 'a.eval.yaml'), 'tool: a\ncases: [{ ask: q }]\n');
    writeFileSync(join(root, 'b.eval.yaml'), 'tool: a\ncases: [{ ask: r }]\n');
    expect(() => loadCases(findCaseFiles([root]), root)).toThrow(/a#1 is used by another file/);
    writeFileSync(join(root, 'big.eval.yaml'), `# ${'x'.repeat(MAX_CASE_FILE_BYTES)}\n`);
    expect(() => loadCases([join(root, 'big.eval.yaml')], root)).toThrow(/at most/);
  });
});
