import { missingScopes, scopesForBody, scopesForMessage } from '@mcp-workshop/mcp-host';
import { cataloguePolicy } from '@mcp-workshop/mcp-host/kit';
import { describe, expect, it } from 'vitest';
import catalogue from '../../src/catalogue.js';
import { TASKS_READ, TASKS_WRITE } from '../../src/deps.js';

const policy = cataloguePolicy(catalogue);
const call = (name: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name, arguments: {} },
});

describe('scopesForMessage', () => {
  it("takes each tool's scopes from its own definition", () => {
    expect(scopesForMessage(call('add_task'), policy)).toEqual([TASKS_WRITE]);
    expect(scopesForMessage(call('complete_task'), policy)).toEqual([TASKS_WRITE]);
    expect(scopesForMessage(call('delete_task'), policy)).toEqual([TASKS_WRITE]);
    expect(scopesForMessage(call('list_tasks'), policy)).toEqual([TASKS_READ]);
    for (const name of ['get_weather', 'list_cities', 'calculate', 'get_time', 'generate_report']) {
      expect(scopesForMessage(call(name), policy)).toEqual([]);
    }
  });

  it('needs tasks:read for task resources, task prompts and their completions', () => {
    const message = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: 1, method, params });
    expect(scopesForMessage(message('resources/read', { uri: 'tasks://all' }), policy)).toEqual([TASKS_READ]);
    expect(scopesForMessage(message('resources/subscribe', { uri: ' Tasks://3' }), policy)).toEqual([
      TASKS_READ,
    ]);
    expect(scopesForMessage(message('resources/read', { uri: 'cities://all' }), policy)).toEqual([]);
    expect(scopesForMessage(message('prompts/get', { name: 'explain_task' }), policy)).toEqual([TASKS_READ]);
    expect(scopesForMessage(message('prompts/get', { name: 'plan_trip' }), policy)).toEqual([]);
    expect(
      scopesForMessage(
        message('completion/complete', { ref: { type: 'ref/prompt', name: 'explain_task' } }),
        policy,
      ),
    ).toEqual([TASKS_READ]);
    expect(
      scopesForMessage(
        message('completion/complete', { ref: { type: 'ref/resource', uri: 'tasks://{id}' } }),
        policy,
      ),
    ).toEqual([TASKS_READ]);
    expect(
      scopesForMessage(
        message('subscriptions/listen', {
          notifications: { resourceSubscriptions: ['cities://all', 'tasks://all'] },
        }),
        policy,
      ),
    ).toEqual([TASKS_READ]);
  });

  it.each([
    'ta\tsks://all',
    'task\ns://1',
    'tas\rks://all',
    '\u0001tasks://1',
    '\u0000tasks://all',
    'TASKS://all',
    ' tasks://all',
    'tasks://all\u001f',
    'tasks:///all',
    'tasks://all#x',
    'tasks://all?x=1',
    'ta sks://all',
    'ta\u00a0sks://all',
  ])('needs tasks:read for %j, a spelling the URL parser cleans up (or a task URI in disguise)', (uri) => {
    for (const method of ['resources/read', 'resources/subscribe', 'resources/unsubscribe']) {
      expect(scopesForMessage({ jsonrpc: '2.0', id: 1, method, params: { uri } }, policy), method).toEqual([
        TASKS_READ,
      ]);
    }
    expect(
      scopesForMessage(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'subscriptions/listen',
          params: { notifications: { resourceSubscriptions: [uri] } },
        },
        policy,
      ),
    ).toEqual([TASKS_READ]);
    expect(
      scopesForMessage(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'completion/complete',
          params: { ref: { type: 'ref/resource', uri } },
        },
        policy,
      ),
    ).toEqual([TASKS_READ]);
  });

  it('needs nothing for the handshake, lists, unknown tools and malformed or hostile messages', () => {
    for (const message of [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      call('no_such_tool'),
      call(42),
      call({ toString: () => 'add_task' }),
      call('__proto__'),
      call('constructor'),
      null,
      'tools/call',
      42,
      { method: 'tools/call', params: 'add_task' },
      { method: 'resources/read', params: { uri: ['tasks://all'] } },
      { method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: 'tasks://all' } } },
    ]) {
      expect(scopesForMessage(message, policy)).toEqual([]);
    }
  });
});

describe('scopesForBody', () => {
  it('unites the scopes of every message of a batch, once each, sorted', () => {
    expect(scopesForBody([call('add_task'), call('list_tasks'), call('delete_task')], policy)).toEqual([
      TASKS_READ,
      TASKS_WRITE,
    ]);
    expect(scopesForBody([], policy)).toEqual([]);
    expect(scopesForBody(undefined, policy)).toEqual([]);
  });
});

describe('missingScopes', () => {
  it('lists what the token lacks', () => {
    expect(missingScopes([TASKS_READ, TASKS_WRITE], [TASKS_READ])).toEqual([TASKS_WRITE]);
    expect(missingScopes([], [])).toEqual([]);
    expect(missingScopes([TASKS_READ], ['tasks:read:extra'])).toEqual([TASKS_READ]);
  });
});
