// Tests of scripts/lib/inspector-node.mjs; run with `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bundledNodeNotice, chooseNode, compareVersions, INSPECTOR_MIN_NODE } from './inspector-node.mjs';

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
      assert.match(choice.message, new RegExp(`needs Node ${INSPECTOR_MIN_NODE.replaceAll('.', '\\.')}`));
      assert.match(choice.message, /Install Node 22/);
      assert.match(choice.message, new RegExp(`${platform}-${arch}`));
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
