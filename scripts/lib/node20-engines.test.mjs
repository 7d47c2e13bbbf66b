// @ts-check
// Tests of scripts/lib/node20-engines.mjs, and the check itself on the real pnpm-lock.yaml; run with
// `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { NODE22_ONLY_ROOTS, packagesRefusingNode, satisfies } from './node20-engines.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('satisfies', () => {
  it('reads the range forms found in the lockfile', () => {
    /** @type {Array<[string, boolean]>} */
    const cases = [
      ['>=20.19.0', true],
      ['>= 20', true],
      ['>=22.19.0', false],
      ['>=22.12.0', false],
      ['^20.19.0 || >=22.12.0', true],
      ['^20.20.0 || >=22.12.0', false],
      ['^18 || >=20', true],
      ['^18.19.0 || >=20.6.0', true],
      ['^20.0.0 || ^22.0.0 || >=24.0.0', true],
      ['10.* || >= 12.*', true],
      ['6.* || 8.* || 10.*', false],
      ['>= 10.x', true],
      ['>18.0.0', true],
      ['>=18 <20', false],
      ['~20.19', true],
      ['~20.18', false],
      ['20', true],
      ['*', true],
    ];
    for (const [range, expected] of cases) assert.equal(satisfies('20.19.0', range), expected, range);
  });

  it('refuses a range it cannot read rather than guess', () => {
    assert.throws(() => satisfies('20.19.0', 'node-lts'), /Cannot read the engines range "node-lts"/);
  });
});

describe('packagesRefusingNode', () => {
  const lockfile = {
    importers: {
      '.': { devDependencies: { inspector: { version: '2.0.0' }, tool: { version: '1.0.0(peer@1.0.0)' } } },
      'services/agent': { dependencies: { shared: { version: 'link:../../packages/shared' } } },
    },
    packages: {
      'inspector@2.0.0': { engines: { node: '>=22.19.0' } },
      'undici@8.0.0': { engines: { node: '>=22.19.0' } },
      'tool@1.0.0': { engines: { node: '>=18' } },
      'deep@1.0.0': { engines: { node: '>=22.12.0' } },
    },
    snapshots: {
      'inspector@2.0.0': { dependencies: { undici: '8.0.0' } },
      'undici@8.0.0': {},
      'tool@1.0.0(peer@1.0.0)': { optionalDependencies: { deep: '1.0.0' } },
      'deep@1.0.0': {},
    },
  };

  it('names a Node 22 package on a Node 20 path, with the path', () => {
    assert.deepEqual(packagesRefusingNode(lockfile, '20.19.0', ['inspector']), [
      { id: 'deep@1.0.0', node: '>=22.12.0', via: '. > tool > deep' },
    ]);
  });

  it('walks into an exempt root only when it is not exempt', () => {
    const ids = packagesRefusingNode(lockfile, '20.19.0', []).map((entry) => entry.id);
    assert.deepEqual(ids.sort(), ['deep@1.0.0', 'inspector@2.0.0', 'undici@8.0.0']);
  });
});

describe("the repository's pnpm-lock.yaml", () => {
  it('has no package that refuses the lowest Node the repository supports, outside the Inspector', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const lowest = /^>=\s*(\d+\.\d+\.\d+)$/.exec(manifest.engines.node)?.[1];
    assert.ok(lowest, `package.json engines.node is "${manifest.engines.node}", expected ">=X.Y.Z"`);
    const lockfile = YAML.parse(fs.readFileSync(path.join(ROOT, 'pnpm-lock.yaml'), 'utf8'));
    assert.deepEqual(packagesRefusingNode(lockfile, lowest), []);
    // The exemption is not empty talk: the Inspector really is a Node 22 package.
    assert.notDeepEqual(packagesRefusingNode(lockfile, lowest, []), []);
    assert.deepEqual(NODE22_ONLY_ROOTS, ['@modelcontextprotocol/inspector']);
  });
});
