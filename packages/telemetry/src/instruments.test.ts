import { describe, expect, it } from 'vitest';
import { metricAttributes } from './instruments.js';

describe('metricAttributes', () => {
  it('drops request ids, session ids and resource URIs, which would make a series per request', () => {
    expect(
      metricAttributes({
        'mcp.method.name': 'resources/read',
        'jsonrpc.request.id': '7',
        'mcp.session.id': 'abc',
        'mcp.resource.uri': 'weather://oslo',
        'error.type': 'tool_error',
      }),
    ).toEqual({ 'mcp.method.name': 'resources/read', 'error.type': 'tool_error' });
  });
});
