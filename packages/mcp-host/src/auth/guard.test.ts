import { describe, expect, it } from 'vitest';
import { bearerChallenge } from './guard.js';

const resourceMetadataUrl = 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp';

describe('bearerChallenge', () => {
  it('has no error code when no token was sent (RFC 6750 §3.1)', () => {
    expect(bearerChallenge({ scopes: ['tasks:read', 'tasks:write'], resourceMetadataUrl })).toBe(
      `Bearer scope="tasks:read tasks:write", resource_metadata="${resourceMetadataUrl}"`,
    );
  });

  it('names the error, what is wrong and the scopes a step-up needs', () => {
    expect(
      bearerChallenge({
        error: 'insufficient_scope',
        description: 'needs tasks:write',
        scopes: ['tasks:write'],
        resourceMetadataUrl,
      }),
    ).toBe(
      `Bearer error="insufficient_scope", error_description="needs tasks:write", scope="tasks:write", resource_metadata="${resourceMetadataUrl}"`,
    );
  });

  it('escapes quotes and backslashes and drops control characters, so a value cannot break the header', () => {
    const header = bearerChallenge({
      error: 'invalid_token',
      description: 'bad "token"\\\r\nSet-Cookie: x=1',
      scopes: [],
      resourceMetadataUrl,
    });
    expect(header).toContain('error_description="bad \\"token\\"\\\\Set-Cookie: x=1"');
    expect(header).not.toMatch(/[\r\n]/);
  });
});
