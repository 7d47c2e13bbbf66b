import { describe, expect, it } from 'vitest';
import {
  assignFunctionNames,
  fitFunctionName,
  isValidFunctionName,
  MAX_FUNCTION_NAME_LENGTH,
  sanitizeFunctionName,
  shortHash,
} from './function-names.js';

describe('sanitizeFunctionName', () => {
  it('keeps a valid name as it is', () => {
    expect(sanitizeFunctionName('get_weather-v2')).toBe('get_weather-v2');
  });

  it('replaces dots, spaces and slashes with underscores, one per character', () => {
    expect(sanitizeFunctionName('tasks.add item/now')).toBe('tasks_add_item_now');
  });

  it('folds accents and replaces other Unicode, counting code points not UTF-16 units', () => {
    expect(sanitizeFunctionName('café')).toBe('cafe');
    expect(sanitizeFunctionName('天气')).toBe('__');
    expect(sanitizeFunctionName('weather🌦')).toBe('weather_');
  });

  it('never returns an empty name', () => {
    expect(sanitizeFunctionName('')).toBe('tool');
  });
});

describe('fitFunctionName', () => {
  it('shortens a 129-character name to 55 characters, an underscore and 8 hex digits', () => {
    const long = `a.${'x'.repeat(127)}`;
    const name = fitFunctionName(long);
    expect(name).toHaveLength(MAX_FUNCTION_NAME_LENGTH);
    expect(name).toBe(`a_${'x'.repeat(53)}_${shortHash(long)}`);
    expect(isValidFunctionName(name)).toBe(true);
  });

  it('is deterministic and tells apart long names that share their start', () => {
    const first = `${'p'.repeat(70)}_one`;
    const second = `${'p'.repeat(70)}_two`;
    expect(fitFunctionName(first)).toBe(fitFunctionName(first));
    expect(fitFunctionName(first)).not.toBe(fitFunctionName(second));
  });

  it('keeps a name of exactly 64 characters', () => {
    const name = 'n'.repeat(64);
    expect(fitFunctionName(name)).toBe(name);
  });
});

describe('assignFunctionNames', () => {
  const request = (base: string, server = 's') => ({ base, identity: `${server}\u0000${base}` });

  it('gives the clean name to the tool that really has it and a hashed one to the other', () => {
    const names = assignFunctionNames([request('get.weather'), request('get_weather')]);
    expect(names[1]).toBe('get_weather');
    expect(names[0]).toMatch(/^get_weather_[0-9a-f]{8}$/);
  });

  it('does not depend on the order of the tools', () => {
    const tools = [request('a.b'), request('a_b'), request('a b'), request('other')];
    const forward = assignFunctionNames(tools);
    const backward = assignFunctionNames([...tools].reverse()).reverse();
    expect(backward).toEqual(forward);
    expect(new Set(forward).size).toBe(tools.length);
  });

  it('separates the same name on two servers by server', () => {
    const names = assignFunctionNames([request('search', 'web'), request('search', 'docs')]);
    // "docs" sorts first, so it keeps the plain name.
    expect(names[1]).toBe('search');
    expect(names[0]).toMatch(/^search_[0-9a-f]{8}$/);
  });

  it('produces valid, distinct names even for colliding overlong names', () => {
    const long = 'x'.repeat(130);
    const names = assignFunctionNames([
      request(long, 'one'),
      request(long, 'two'),
      request(`${long}.`, 'one'),
    ]);
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(isValidFunctionName(name)).toBe(true);
  });
});
