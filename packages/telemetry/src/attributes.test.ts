import { describe, expect, it } from 'vitest';
import {
  ATTR,
  outcomeOf,
  PROTOCOL_VERSION_META_KEY,
  requestAttributes,
  spanNameOf,
  TOOL_ERROR,
  targetOf,
  transportAttributes,
} from './attributes.js';

describe('spanNameOf', () => {
  it('names a tool call after its tool', () => {
    expect(spanNameOf({ method: 'tools/call', params: { name: 'get_weather', arguments: {} } })).toBe(
      'tools/call get_weather',
    );
  });

  it('names a prompt request after its prompt', () => {
    expect(spanNameOf({ method: 'prompts/get', params: { name: 'x' } })).toBe('prompts/get x');
  });

  it('keeps resource URIs out of the name', () => {
    expect(spanNameOf({ method: 'resources/read', params: { uri: 'weather://oslo/today' } })).toBe(
      'resources/read',
    );
  });

  it('uses the bare method for a request without a target', () => {
    expect(spanNameOf({ method: 'tools/list' })).toBe('tools/list');
    expect(spanNameOf({ method: 'tools/list', params: { cursor: 'abc' } })).toBe('tools/list');
    expect(spanNameOf({ method: 'initialize', params: { name: 'not-a-tool' } })).toBe('initialize');
  });

  it.each([
    ['a number', 42],
    ['an object', { toString: () => 'get_weather' }],
    ['an array', ['get_weather']],
    ['an empty string', ''],
    ['nothing', undefined],
  ])('ignores a tool name that is %s', (_, name) => {
    expect(spanNameOf({ method: 'tools/call', params: { name } })).toBe('tools/call');
  });

  it('ignores params that are not an object', () => {
    expect(spanNameOf({ method: 'tools/call', params: 'get_weather' })).toBe('tools/call');
    expect(spanNameOf({ method: 'tools/call', params: ['get_weather'] })).toBe('tools/call');
    expect(spanNameOf({ method: 'tools/call', params: null })).toBe('tools/call');
  });

  it('cuts an oversized name to 256 characters', () => {
    const name = 'n'.repeat(10_000);
    expect(spanNameOf({ method: 'tools/call', params: { name } })).toBe(`tools/call ${'n'.repeat(256)}`);
  });
});

describe('targetOf', () => {
  it('finds the tool, the prompt or the resource URI', () => {
    expect(targetOf({ method: 'tools/call', params: { name: 'get_weather' } })).toEqual({
      tool: 'get_weather',
    });
    expect(targetOf({ method: 'prompts/get', params: { name: 'plan_trip' } })).toEqual({
      prompt: 'plan_trip',
    });
    expect(targetOf({ method: 'resources/read', params: { uri: 'weather://oslo' } })).toEqual({
      uri: 'weather://oslo',
    });
    expect(targetOf({ method: 'tools/list' })).toEqual({});
  });
});

describe('requestAttributes', () => {
  it('describes a tool call as a gen_ai tool execution', () => {
    expect(requestAttributes({ method: 'tools/call', params: { name: 'get_weather' } })).toEqual({
      [ATTR.methodName]: 'tools/call',
      [ATTR.toolName]: 'get_weather',
      [ATTR.operationName]: 'execute_tool',
    });
  });

  it('puts a resource URI on an attribute, never in the name', () => {
    expect(requestAttributes({ method: 'resources/read', params: { uri: 'weather://oslo/today' } })).toEqual({
      [ATTR.methodName]: 'resources/read',
      [ATTR.resourceUri]: 'weather://oslo/today',
    });
  });

  it('names the prompt', () => {
    expect(requestAttributes({ method: 'prompts/get', params: { name: 'x' } })).toEqual({
      [ATTR.methodName]: 'prompts/get',
      [ATTR.promptName]: 'x',
    });
  });

  it('reads the protocol revision from the request _meta and ignores one that is not a string', () => {
    const meta = (version: unknown) => ({
      method: 'tools/list',
      params: { _meta: { [PROTOCOL_VERSION_META_KEY]: version } },
    });
    expect(requestAttributes(meta('2026-07-28'))[ATTR.protocolVersion]).toBe('2026-07-28');
    expect(requestAttributes(meta(20260728))).not.toHaveProperty(ATTR.protocolVersion);
  });
});

describe('transportAttributes', () => {
  it('calls stdio a pipe and Streamable HTTP HTTP over TCP', () => {
    expect(transportAttributes('stdio')).toEqual({ [ATTR.networkTransport]: 'pipe' });
    expect(transportAttributes('http')).toEqual({
      [ATTR.networkTransport]: 'tcp',
      [ATTR.networkProtocol]: 'http',
    });
  });
});

describe('outcomeOf', () => {
  it('records nothing for a success', () => {
    expect(outcomeOf({ result: { content: [] } }, 'server')).toEqual({ attributes: {}, toolError: false });
    expect(outcomeOf({ result: { content: [], isError: false } }, 'client')).toEqual({
      attributes: {},
      toolError: false,
    });
  });

  it.each(['client', 'server'] as const)('calls an isError result a tool error on the %s side', (side) => {
    const outcome = outcomeOf(
      { result: { content: [{ type: 'text', text: 'Unknown city' }], isError: true } },
      side,
    );
    expect(outcome.attributes).toEqual({ [ATTR.errorType]: TOOL_ERROR });
    expect(outcome.toolError).toBe(true);
    expect(outcome.errorMessage).toBeTruthy();
  });

  it('does not take a truthy isError that is not true for a tool error', () => {
    expect(outcomeOf({ result: { isError: 'yes' } }, 'client').toolError).toBe(false);
  });

  it('records invalid params on the server without calling it the server error', () => {
    const outcome = outcomeOf({ error: { code: -32602, message: 'Invalid params' } }, 'server');
    expect(outcome.attributes).toEqual({ [ATTR.statusCode]: '-32602' });
    expect(outcome.errorMessage).toBeUndefined();
    expect(outcome.toolError).toBe(false);
  });

  it('calls invalid params an error on the client, which sent them', () => {
    const outcome = outcomeOf({ error: { code: -32602, message: 'Invalid params' } }, 'client');
    expect(outcome.attributes).toEqual({ [ATTR.statusCode]: '-32602', [ATTR.errorType]: '-32602' });
    expect(outcome.errorMessage).toBe('Invalid params');
  });

  it.each(['client', 'server'] as const)('calls an internal error an error on the %s side', (side) => {
    const outcome = outcomeOf({ error: { code: -32603, message: 'Internal error' } }, side);
    expect(outcome.attributes).toEqual({ [ATTR.statusCode]: '-32603', [ATTR.errorType]: '-32603' });
    expect(outcome.errorMessage).toBe('Internal error');
  });

  it('names an error without a numeric code _OTHER and gives it a message', () => {
    const outcome = outcomeOf({ error: { code: 'oops' } }, 'server');
    expect(outcome.attributes).toEqual({ [ATTR.errorType]: '_OTHER' });
    expect(outcome.errorMessage).toBe('JSON-RPC error _OTHER');
  });

  it('cuts a long error message to 500 characters', () => {
    const outcome = outcomeOf({ error: { code: -32603, message: 'm'.repeat(5000) } }, 'client');
    expect(outcome.errorMessage).toHaveLength(500);
  });
});
