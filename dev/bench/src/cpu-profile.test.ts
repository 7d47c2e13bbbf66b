import { SourceMapConsumer, SourceMapGenerator } from 'source-map-js';
import { describe, expect, it } from 'vitest';
import { type CpuProfile, packageOf, selfTimeByPackage } from './cpu-profile.js';

const frame = (functionName: string, url: string, lineNumber = 0, columnNumber = 0) => ({
  functionName,
  url,
  lineNumber,
  columnNumber,
});

describe('packageOf', () => {
  it('names a file by its package, the catalogue, or itself', () => {
    expect(packageOf('/r/node_modules/.pnpm/zod@4.1.0/node_modules/zod/v4/core.js')).toBe('zod');
    expect(
      packageOf(
        '/r/node_modules/.pnpm/@modelcontextprotocol+server@2.4.0_patch_hash=1/node_modules/@modelcontextprotocol/server/dist/a.mjs',
      ),
    ).toBe('@modelcontextprotocol/server');
    expect(packageOf('/r/packages/mcp-host/src/http/app.ts')).toBe('@mcp-workshop/mcp-host');
    expect(packageOf('/r/services/mcp-server/src/tools/calculate.ts')).toBe(
      'the catalogue (services/mcp-server)',
    );
    expect(packageOf('/elsewhere/script.js')).toBe('/elsewhere/script.js');
  });
});

describe('selfTimeByPackage', () => {
  it('maps bundled code through its source map, counts self and inclusive time, and leaves idle out', () => {
    const bundle = '/r/services/mcp-server/dist/index.main.cjs';
    const map = new SourceMapGenerator({ file: 'index.main.cjs' });
    map.addMapping({
      generated: { line: 1, column: 0 },
      original: { line: 1, column: 0 },
      source: '../../../node_modules/.pnpm/zod@4.1.0/node_modules/zod/index.js',
    });
    map.addMapping({
      generated: { line: 2, column: 0 },
      original: { line: 1, column: 0 },
      source: '../src/tools/calculate.ts',
    });
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 5] },
        { id: 2, callFrame: frame('handle', `file://${bundle}`, 1, 0), children: [3] },
        { id: 3, callFrame: frame('parse', `file://${bundle}`, 0, 4), children: [4] },
        { id: 4, callFrame: frame('(garbage collector)', '') },
        { id: 5, callFrame: frame('(idle)', '') },
      ],
      samples: [3, 3, 4, 2, 5],
      timeDeltas: [1_000, 1_000, 500, 500, 9_000],
    };
    const consumer = new SourceMapConsumer(JSON.parse(map.toString()));
    const rows = selfTimeByPackage(profile, (file) => (file === bundle ? consumer : undefined));
    expect(rows.map((row) => [row.where, row.ms])).toEqual([
      ['zod', 2],
      ['(garbage collector)', 0.5],
      ['the catalogue (services/mcp-server)', 0.5],
    ]);
    // The catalogue's handler is on every stack: all 3 ms of it, with its callees.
    expect(rows.find((row) => row.where.startsWith('the catalogue'))?.inclusiveShare).toBe(1);
    expect(rows.find((row) => row.where === 'zod')?.inclusiveShare).toBeCloseTo(2.5 / 3);
  });
});
