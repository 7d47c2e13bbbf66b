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

describe('metricAttributes for a refused request', () => {
  const named = {
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'no_such_tool',
    'gen_ai.prompt.name': 'no_such_prompt',
    'gen_ai.operation.name': 'execute_tool',
  };

  it('drops the client-chosen tool, prompt and operation names of a request refused for the caller (-32602)', () => {
    expect(
      metricAttributes({
        ...named,
        'jsonrpc.request.id': '7',
        'rpc.response.status_code': '-32602',
        'error.type': '-32602',
      }),
    ).toEqual({
      'mcp.method.name': 'tools/call',
      'rpc.response.status_code': '-32602',
      'error.type': '-32602',
    });
  });

  it('keeps the names of a tool that ran and failed inside (-32603), which the server registered', () => {
    const failed = { ...named, 'rpc.response.status_code': '-32603', 'error.type': '-32603' };
    expect(metricAttributes(failed)).toEqual(failed);
  });

  it('keeps the names of a request that was answered, even with a tool error', () => {
    expect(metricAttributes(named)).toEqual(named);
    expect(metricAttributes({ ...named, 'error.type': 'tool_error' })).toEqual({
      ...named,
      'error.type': 'tool_error',
    });
  });
});
