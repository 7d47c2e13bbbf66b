/**
 * Tests for `ui-meta.ts`: what the agent takes from a tool's MCP Apps `_meta` (its `ui://` view and
 * who may call it), and that anything odd a server sends there gives no view rather than a bad one.
 */
import { describe, expect, it } from 'vitest';
import { checkedViewUri, MAX_VIEW_URI_CHARS, readToolUi, visibleToApp, visibleToModel } from './ui-meta.js';

const HOSTILE_URIS: Array<[string, unknown]> = [
  ['an upper-case scheme', 'UI://x'],
  ['a space', 'ui:// x'],
  ['a script URL', 'javascript:alert(1)'],
  ['an http URL', 'https://example.com/view.html'],
  ['a double quote', 'ui://a"b'],
  ['angle brackets', 'ui://<x>'],
  ['a line break', 'ui://x\ny'],
  ['a non-ASCII character', 'ui://vue/é'],
  ['nothing after the scheme', 'ui://'],
  ['one character too many', `ui://${'a'.repeat(MAX_VIEW_URI_CHARS - 4)}`],
  ['a number', 42],
  ['null', null],
  ['an object', { href: 'ui://x' }],
  ['a list', ['ui://x']],
];

describe('readToolUi', () => {
  it('reads the view from _meta.ui.resourceUri, callable by model and view alike by default', () => {
    expect(readToolUi({ ui: { resourceUri: 'ui://weather/forecast' } })).toEqual({
      resourceUri: 'ui://weather/forecast',
      visibility: ['model', 'app'],
    });
  });

  it('reads the flat _meta["ui/resourceUri"] of the drafts, and prefers _meta.ui when both are there', () => {
    expect(readToolUi({ 'ui/resourceUri': 'ui://tasks/board' })).toEqual({
      resourceUri: 'ui://tasks/board',
      visibility: ['model', 'app'],
    });
    expect(
      readToolUi({ ui: { resourceUri: 'ui://new/one' }, 'ui/resourceUri': 'ui://old/one' })?.resourceUri,
    ).toBe('ui://new/one');
  });

  it('keeps a URI of exactly the longest length allowed', () => {
    const uri = `ui://${'a'.repeat(MAX_VIEW_URI_CHARS - 5)}`;
    expect(uri).toHaveLength(MAX_VIEW_URI_CHARS);
    expect(readToolUi({ ui: { resourceUri: uri } })?.resourceUri).toBe(uri);
  });

  it.each(HOSTILE_URIS)('gives no view for a URI with %s', (_label, uri) => {
    expect(checkedViewUri(uri)).toBeUndefined();
    expect(readToolUi({ ui: { resourceUri: uri } })).toBeUndefined();
    expect(readToolUi({ 'ui/resourceUri': uri })).toBeUndefined();
    // The visibility still counts: a bad view URI does not open an app-only tool to the model.
    expect(readToolUi({ ui: { resourceUri: uri, visibility: ['app'] } })).toEqual({ visibility: ['app'] });
  });

  it('keeps only the known visibilities, in one order, and an empty list as empty', () => {
    expect(readToolUi({ ui: { visibility: ['app'] } })).toEqual({ visibility: ['app'] });
    expect(readToolUi({ ui: { visibility: ['app', 'model'] } })?.visibility).toEqual(['model', 'app']);
    expect(readToolUi({ ui: { visibility: ['model', 'admin', 7, null, 'APP'] } })?.visibility).toEqual([
      'model',
    ]);
    expect(readToolUi({ ui: { visibility: [] } })).toEqual({ visibility: [] });
  });

  it('reads a visibility that is not a list as none given, which means both', () => {
    expect(readToolUi({ ui: { resourceUri: 'ui://a/b', visibility: 'app' } })?.visibility).toEqual([
      'model',
      'app',
    ]);
    expect(readToolUi({ ui: { visibility: 'app' } })).toBeUndefined();
  });

  it('is undefined when _meta says nothing of MCP Apps or is not an object', () => {
    for (const meta of [undefined, null, 'ui://a/b', 7, [], {}, { vendor: 1 }, { ui: null }, { ui: 'app' }]) {
      expect(readToolUi(meta), JSON.stringify(meta)).toBeUndefined();
    }
  });
});

describe('visibleToModel and visibleToApp', () => {
  it('let both call a tool that says nothing, or whose visibility names both', () => {
    for (const ui of [undefined, { visibility: ['model', 'app'] as const }]) {
      expect(visibleToModel(ui)).toBe(true);
      expect(visibleToApp(ui)).toBe(true);
    }
  });

  it('keep an app-only tool from the model and a model-only tool from views', () => {
    expect(visibleToModel({ visibility: ['app'] })).toBe(false);
    expect(visibleToApp({ visibility: ['app'] })).toBe(true);
    expect(visibleToModel({ visibility: ['model'] })).toBe(true);
    expect(visibleToApp({ visibility: ['model'] })).toBe(false);
  });

  it('let nobody call a tool with an empty visibility', () => {
    expect(visibleToModel({ visibility: [] })).toBe(false);
    expect(visibleToApp({ visibility: [] })).toBe(false);
  });
});
