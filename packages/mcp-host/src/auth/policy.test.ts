/**
 * @module auth/policy.test
 * `createScopePolicy`: names as given, schemes lowercased (URIs are matched by lowercased
 * scheme), and anything not listed needs no scope.
 */
import { describe, expect, it } from 'vitest';
import { createScopePolicy } from './policy.js';

describe('createScopePolicy', () => {
  const policy = createScopePolicy({
    supported: ['notes:read', 'notes:write'],
    tools: [{ name: 'write_note', scopes: ['notes:write'] }],
    prompts: [{ name: 'summarize_note', scopes: ['notes:read'] }],
    resourceSchemes: { NoTeS: ['notes:read'] },
  });

  it('keeps the supported scopes and the tool and prompt rules by name', () => {
    expect(policy.supported).toEqual(['notes:read', 'notes:write']);
    expect(policy.tools.get('write_note')).toEqual(['notes:write']);
    expect(policy.prompts.get('summarize_note')).toEqual(['notes:read']);
  });

  it('files a resource scheme lowercased, whatever its spelling in the rules', () => {
    expect(policy.resourceSchemes.get('notes')).toEqual(['notes:read']);
    expect(policy.resourceSchemes.get('NoTeS')).toBeUndefined();
  });

  it('names nothing it was not told: unlisted tools, prompts and schemes need no scope', () => {
    expect(policy.tools.get('echo')).toBeUndefined();
    expect(policy.tools.get('WRITE_NOTE')).toBeUndefined();
    expect(policy.prompts.get('write_note')).toBeUndefined();
    expect(policy.resourceSchemes.get('files')).toBeUndefined();
  });

  it('gives empty rules when only the supported scopes are given', () => {
    const bare = createScopePolicy({ supported: [] });
    expect([bare.tools.size, bare.prompts.size, bare.resourceSchemes.size]).toEqual([0, 0, 0]);
  });
});
