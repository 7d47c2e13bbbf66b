import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { DiscoveredTool } from '../types.js';
import { visibleToModel } from '../views/ui-meta.js';
import { qualifyTools, toDiscoveredTool } from './discover.js';

const tool = (server: string, name: string): DiscoveredTool => ({
  server,
  name,
  inputSchema: { type: 'object' },
});
const names = (tools: ReadonlyArray<{ qualifiedName: string }>) => tools.map((entry) => entry.qualifiedName);

describe('qualifyTools', () => {
  it('keeps names that only one server offers', () => {
    const tools = qualifyTools([
      { server: 'workshop', tools: [tool('workshop', 'get_weather'), tool('workshop', 'calculate')] },
      { server: 'time', tools: [tool('time', 'get_time')] },
    ]);
    expect(names(tools)).toEqual(['get_weather', 'calculate', 'get_time']);
    expect(tools[0]).toMatchObject({ server: 'workshop', name: 'get_weather' });
  });

  it('prefixes every copy of a name that several servers offer with its server', () => {
    const tools = qualifyTools([
      { server: 'workshop', tools: [tool('workshop', 'get_weather'), tool('workshop', 'calculate')] },
      { server: 'meteo', tools: [tool('meteo', 'get_weather')] },
    ]);
    expect(names(tools)).toEqual(['workshop__get_weather', 'calculate', 'meteo__get_weather']);
    expect(tools.map((entry) => entry.name)).toEqual(['get_weather', 'calculate', 'get_weather']);
  });

  it('adds a suffix when a prefixed name is already some tool’s own name', () => {
    const warnings: string[] = [];
    const tools = qualifyTools(
      [
        { server: 'a', tools: [tool('a', 'b__run'), tool('a', 'run')] },
        { server: 'b', tools: [tool('b', 'run')] },
      ],
      (message) => warnings.push(message),
    );
    expect(names(tools)).toEqual(['b__run', 'a__run', 'b__run_2']);
    expect(warnings).toHaveLength(1);
  });

  it('keeps the first of two tools one server lists under the same name', () => {
    const warnings: string[] = [];
    const first = { ...tool('x', 'dup'), description: 'first' };
    const tools = qualifyTools(
      [{ server: 'x', tools: [first, { ...tool('x', 'dup'), description: 'second' }] }],
      (m) => warnings.push(m),
    );
    expect(tools).toEqual([{ ...first, qualifiedName: 'dup' }]);
    expect(warnings).toEqual(['server lists a tool name twice; keeping the first']);
  });
});

describe('toDiscoveredTool', () => {
  it('keeps the fields the model needs and drops icons and _meta', () => {
    const discovered = toDiscoveredTool('workshop', {
      name: 'get_weather',
      description: 'Weather for a place.',
      inputSchema: { type: 'object', properties: { location: { type: 'string' } } },
      outputSchema: { type: 'object' },
      annotations: { title: 'Weather', readOnlyHint: true },
      icons: [{ src: 'https://example.com/i.png' }],
      _meta: { vendor: 1 },
    });
    expect(discovered).toEqual({
      server: 'workshop',
      name: 'get_weather',
      title: 'Weather',
      description: 'Weather for a place.',
      inputSchema: { type: 'object', properties: { location: { type: 'string' } } },
      outputSchema: { type: 'object' },
      annotations: { title: 'Weather', readOnlyHint: true },
    });
  });
});

describe('toDiscoveredTool: MCP Apps', () => {
  const base = { name: 'list_tasks', inputSchema: { type: 'object' as const } };

  it('keeps the checked view and visibility as ui, from _meta.ui or the flat key', () => {
    expect(
      toDiscoveredTool('workshop', {
        ...base,
        _meta: { ui: { resourceUri: 'ui://tasks/board', visibility: ['app'] }, vendor: 1 },
      }).ui,
    ).toEqual({ resourceUri: 'ui://tasks/board', visibility: ['app'] });
    expect(
      toDiscoveredTool('workshop', { ...base, _meta: { 'ui/resourceUri': 'ui://tasks/board' } }).ui,
    ).toEqual({
      resourceUri: 'ui://tasks/board',
      visibility: ['model', 'app'],
    });
  });

  it('keeps an app-only tool (the hub hides it from the model), and drops a view URI that is not one', () => {
    const appOnly = toDiscoveredTool('workshop', { ...base, _meta: { ui: { visibility: ['app'] } } });
    expect(appOnly).toMatchObject({ name: 'list_tasks', ui: { visibility: ['app'] } });
    const hostile = toDiscoveredTool('workshop', {
      ...base,
      _meta: { ui: { resourceUri: 'javascript:alert(1)' } },
    });
    expect('ui' in hostile).toBe(false);
  });
});

/**
 * Whether the hub offers a tool to the model: MCP Apps (`io.modelcontextprotocol/ui`) lets a tool
 * say who may call it in `_meta.ui.visibility`; `["app"]` means only its view, through the host.
 */
function isForModel(tool: Pick<Tool, '_meta'>): boolean {
  const discovered = toDiscoveredTool('workshop', { name: 't', inputSchema: { type: 'object' }, ...tool });
  return visibleToModel(discovered.ui);
}

describe('which discovered tools the model is offered', () => {
  it('offers a tool without MCP Apps visibility, or whose visibility includes the model', () => {
    expect(isForModel({})).toBe(true);
    expect(isForModel({ _meta: { ui: { resourceUri: 'ui://weather/forecast' } } })).toBe(true);
    expect(isForModel({ _meta: { ui: { visibility: ['model', 'app'] } } })).toBe(true);
    expect(isForModel({ _meta: { ui: { visibility: ['model'] } } })).toBe(true);
  });

  it('never offers a tool only a view may call, nor one with an empty visibility', () => {
    expect(isForModel({ _meta: { ui: { visibility: ['app'] } } })).toBe(false);
    expect(isForModel({ _meta: { ui: { visibility: [] } } })).toBe(false);
  });

  it('reads a malformed visibility as no visibility at all', () => {
    expect(isForModel({ _meta: { ui: { visibility: 'app' } } })).toBe(true);
    expect(isForModel({ _meta: { ui: null } })).toBe(true);
    expect(isForModel({ _meta: { ui: 'app' } })).toBe(true);
  });
});
