import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ATTR,
  methodOf,
  outcomeOf,
  PROTOCOL_VERSION_META_KEY,
  requestAttributes,
  requestIdOf,
  safeName,
  sessionIdAttribute,
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
    ['nothing', undefined],
  ])('ignores a tool name that is %s', (_, name) => {
    expect(spanNameOf({ method: 'tools/call', params: { name } })).toBe('tools/call');
  });

  it('calls an empty tool name _OTHER: it is a string, but no name', () => {
    expect(spanNameOf({ method: 'tools/call', params: { name: '' } })).toBe('tools/call _OTHER');
  });

  it('ignores params that are not an object', () => {
    expect(spanNameOf({ method: 'tools/call', params: 'get_weather' })).toBe('tools/call');
    expect(spanNameOf({ method: 'tools/call', params: ['get_weather'] })).toBe('tools/call');
    expect(spanNameOf({ method: 'tools/call', params: null })).toBe('tools/call');
  });

  it.each([
    ['too long', 'n'.repeat(10_000)],
    ['one character too long', 'n'.repeat(129)],
    ['spaced', 'get weather'],
    ['multi-line', 'get_weather\nDROP TABLE'],
    ['non-ASCII', 'météo'],
  ])('calls a tool or prompt name that is %s _OTHER', (_, name) => {
    expect(spanNameOf({ method: 'tools/call', params: { name } })).toBe('tools/call _OTHER');
    expect(spanNameOf({ method: 'prompts/get', params: { name } })).toBe('prompts/get _OTHER');
  });

  it('keeps a name of exactly 128 characters', () => {
    const name = 'n'.repeat(128);
    expect(spanNameOf({ method: 'tools/call', params: { name } })).toBe(`tools/call ${name}`);
  });

  it('calls a method that does not look like one _OTHER, also before a tool name', () => {
    expect(spanNameOf({ method: 'm'.repeat(1_000_000) })).toBe('_OTHER');
    expect(spanNameOf({ method: 'tools call', params: { name: 'get_weather' } })).toBe('_OTHER');
  });
});

describe('safeName', () => {
  it.each(['tools/call', 'notifications/cancelled', 'get_weather', 'ns.tool:v1-beta', 'n'.repeat(128)])(
    'keeps %s',
    (name) => {
      expect(safeName(name)).toBe(name);
    },
  );

  it.each(['', ' ', 'a b', 'n'.repeat(129), 'tool\u0000', 'tool\n', 'naïve', 'a"b', '{}'])(
    'calls %j _OTHER',
    (name) => {
      expect(safeName(name)).toBe('_OTHER');
    },
  );
});

describe('methodOf', () => {
  it('keeps a method name and calls anything else _OTHER', () => {
    expect(methodOf({ method: 'resources/read' })).toBe('resources/read');
    expect(methodOf({ method: 'x'.repeat(129) })).toBe('_OTHER');
  });
});

describe('requestIdOf', () => {
  it('writes a numeric or string id as a string, cut to 128 characters', () => {
    expect(requestIdOf(7)).toBe('7');
    expect(requestIdOf('abc')).toBe('abc');
    expect(requestIdOf('i'.repeat(1_000_000))).toBe('i'.repeat(128));
  });
});

describe('sessionIdAttribute', () => {
  it('is the first 32 hex characters of the sha256 of the session id', () => {
    const expected = createHash('sha256').update('session-42').digest('hex').slice(0, 32);
    expect(sessionIdAttribute('session-42')).toBe(expected);
    expect(sessionIdAttribute('session-42')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is stable for one id, differs between ids and never contains the id', () => {
    expect(sessionIdAttribute('abc')).toBe(sessionIdAttribute('abc'));
    expect(sessionIdAttribute('abc')).not.toBe(sessionIdAttribute('abd'));
    expect(sessionIdAttribute('abc')).not.toContain('abc');
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
  it('records a tool name that does not look like one as _OTHER', () => {
    expect(requestAttributes({ method: 'tools/call', params: { name: 'get weather now' } })).toEqual({
      [ATTR.methodName]: 'tools/call',
      [ATTR.toolName]: '_OTHER',
      [ATTR.operationName]: 'execute_tool',
    });
    expect(requestAttributes({ method: 'prompts/get', params: { name: 'p'.repeat(5000) } })).toEqual({
      [ATTR.methodName]: 'prompts/get',
      [ATTR.promptName]: '_OTHER',
    });
  });

  it('records a method that does not look like one as _OTHER', () => {
    expect(requestAttributes({ method: 'm'.repeat(1000) })).toEqual({ [ATTR.methodName]: '_OTHER' });
  });

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

  it('records invalid params on the server with its code, without calling it the server error', () => {
    const outcome = outcomeOf({ error: { code: -32602, message: 'Invalid params' } }, 'server');
    expect(outcome.attributes).toEqual({ [ATTR.statusCode]: '-32602', [ATTR.errorType]: '-32602' });
    expect(outcome.errorMessage).toBeUndefined();
    expect(outcome.toolError).toBe(false);
  });

  it.each([-32700, -32600, -32601, -32602, -32002])(
    'leaves the server status unset for %i, which blames the caller, but names the code',
    (code) => {
      const outcome = outcomeOf({ error: { code, message: 'caller error' } }, 'server');
      expect(outcome.attributes).toEqual({ [ATTR.statusCode]: String(code), [ATTR.errorType]: String(code) });
      expect(outcome.errorMessage).toBeUndefined();
    },
  );

  it('calls invalid params an error on the client, which sent them, with a fixed phrase', () => {
    const outcome = outcomeOf({ error: { code: -32602, message: 'Invalid params' } }, 'client');
    expect(outcome.attributes).toEqual({ [ATTR.statusCode]: '-32602', [ATTR.errorType]: '-32602' });
    expect(outcome.errorMessage).toBe('JSON-RPC error -32602');
  });

  it.each(['client', 'server'] as const)('calls an internal error an error on the %s side', (side) => {
    const outcome = outcomeOf({ error: { code: -32603, message: 'Internal error' } }, side);
    expect(outcome.attributes).toEqual({ [ATTR.statusCode]: '-32603', [ATTR.errorType]: '-32603' });
    expect(outcome.errorMessage).toBe('JSON-RPC error -32603');
  });

  it('names an error without a numeric code _OTHER and gives it a message', () => {
    const outcome = outcomeOf({ error: { code: 'oops' } }, 'server');
    expect(outcome.attributes).toEqual({ [ATTR.errorType]: '_OTHER' });
    expect(outcome.errorMessage).toBe('JSON-RPC error _OTHER');
  });

  it.each(['client', 'server'] as const)(
    "never puts the error's own message, which may quote the request, into the status on the %s side",
    (side) => {
      const message = `Unknown tool: ${'secret-'.repeat(1000)}`;
      const outcome = outcomeOf({ error: { code: -32603, message } }, side);
      expect(outcome.errorMessage).toBe('JSON-RPC error -32603');
      expect(JSON.stringify(outcome)).not.toContain('secret-');
    },
  );
});
