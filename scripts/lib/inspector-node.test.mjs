// @ts-check
// Tests of scripts/lib/inspector-node.mjs; run with `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import {
  bundledNodeNotice,
  chooseNode,
  compareVersions,
  INSPECTOR_ENTRY,
  INSPECTOR_MIN_NODE,
  INSPECTOR_PACKAGE,
  INSPECTOR_VERSION,
} from './inspector-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the pinned Inspector', () => {
  it("is the version the catalog pins and `pnpm install` installed, with that version's Node and entry", () => {
    const workspace = YAML.parse(fs.readFileSync(path.join(ROOT, 'pnpm-workspace.yaml'), 'utf8'));
    assert.equal(workspace.catalog[INSPECTOR_PACKAGE], INSPECTOR_VERSION);
    const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.equal(root.devDependencies[INSPECTOR_PACKAGE], 'catalog:');
    const require = createRequire(path.join(ROOT, 'package.json'));
    const manifest = JSON.parse(
      fs.readFileSync(require.resolve(`${INSPECTOR_PACKAGE}/package.json`), 'utf8'),
    );
    assert.equal(manifest.version, INSPECTOR_VERSION);
    assert.equal(manifest.engines.node, `>=${INSPECTOR_MIN_NODE}`);
    assert.equal(path.normalize(manifest.bin.inspector), path.normalize(INSPECTOR_ENTRY));
  });
});

describe('chooseNode', () => {
  it('uses the running Node when it is at least the minimum', () => {
    assert.deepEqual(chooseNode('v22.19.0', 'linux', 'x64'), { kind: 'current' });
    assert.deepEqual(chooseNode('v22.23.3', 'darwin', 'arm64'), { kind: 'current' });
    assert.deepEqual(chooseNode('v24.1.0', 'win32', 'x64'), { kind: 'current' });
  });

  it('borrows dev/node22 on Linux x64 when the running Node is older', () => {
    assert.deepEqual(chooseNode('v20.20.2', 'linux', 'x64'), { kind: 'bundled' });
    assert.deepEqual(chooseNode('v22.18.9', 'linux', 'x64'), { kind: 'bundled' });
  });

  it('refuses with advice to install Node 22 elsewhere when the running Node is older', () => {
    for (const [platform, arch] of [
      ['darwin', 'arm64'],
      ['win32', 'x64'],
      ['linux', 'arm64'],
    ]) {
      const choice = chooseNode('v20.19.0', platform, arch);
      assert.equal(choice.kind, 'unsupported');
      assert.match(
        choice.message ?? '',
        new RegExp(`needs Node ${INSPECTOR_MIN_NODE.replaceAll('.', '\\.')}`),
      );
      assert.match(choice.message ?? '', /Install Node 22/);
      assert.match(choice.message ?? '', new RegExp(`${platform}-${arch}`));
    }
  });
});

describe('compareVersions', () => {
  it('compares numerically, with or without a leading v', () => {
    assert.equal(compareVersions('v22.9.0', '22.19.0'), -1);
    assert.equal(compareVersions('22.19.0', 'v22.19.0'), 0);
    assert.equal(compareVersions('v100.0.0', '22.19.0'), 1);
    assert.equal(compareVersions('22.19', '22.19.0'), 0);
  });
});

describe('bundledNodeNotice', () => {
  it('names both versions and the folder', () => {
    assert.equal(
      bundledNodeNotice('v20.20.2', '22.23.3'),
      "Node v20.20.2 is older than 22.19 that MCP Inspector 2.x needs: using dev/node22's Node v22.23.3",
    );
  });
});
