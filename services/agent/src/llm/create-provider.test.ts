import { describe, expect, it } from 'vitest';
import {
  createModelProvider,
  DEFAULT_OPENAI_MODEL,
  DEMO_MODEL,
  DEMO_MODEL_LABEL,
  describeModel,
  OPENAI_BASE_URL,
} from './create-provider.js';

const demoBaseUrl = 'http://127.0.0.1:4319/v1';

describe('describeModel', () => {
  it('chooses OpenAI with an API key and no base URL', () => {
    expect(describeModel({ apiKey: 'sk-test', api: 'chat', demoBaseUrl })).toEqual({
      kind: 'openai',
      model: DEFAULT_OPENAI_MODEL,
      baseUrl: OPENAI_BASE_URL,
      api: 'chat',
      label: `OpenAI ${DEFAULT_OPENAI_MODEL}`,
    });
    expect(describeModel({ apiKey: 'sk-test', model: 'gpt-4.1', api: 'responses' })).toMatchObject({
      model: 'gpt-4.1',
      api: 'responses',
      label: 'OpenAI gpt-4.1',
    });
  });

  it('chooses a custom server with a base URL, with or without a key', () => {
    const settings = { baseUrl: 'http://localhost:11434/v1', model: 'llama3.2', api: 'chat' as const };
    const expected = {
      kind: 'custom',
      model: 'llama3.2',
      baseUrl: 'http://localhost:11434/v1',
      api: 'chat',
      label: 'llama3.2 at http://localhost:11434/v1',
    };
    expect(describeModel(settings)).toEqual(expected);
    expect(describeModel({ ...settings, apiKey: 'lm-studio' })).toEqual(expected);
  });

  it('chooses the demo model when neither key nor base URL is set', () => {
    expect(describeModel({ api: 'chat', demoBaseUrl })).toEqual({
      kind: 'demo',
      model: DEMO_MODEL,
      baseUrl: demoBaseUrl,
      api: 'chat',
      label: DEMO_MODEL_LABEL,
    });
  });

  it('treats empty strings as unset', () => {
    expect(describeModel({ apiKey: '', baseUrl: '', model: '', api: 'chat', demoBaseUrl }).kind).toBe('demo');
    expect(describeModel({ apiKey: 'sk', baseUrl: ' ', model: '', api: 'chat' })).toMatchObject({
      kind: 'openai',
      model: DEFAULT_OPENAI_MODEL,
    });
  });

  it('throws when the demo model is chosen but has no address', () => {
    expect(() => describeModel({ api: 'chat' })).toThrow(/demoBaseUrl/);
  });
});

describe('createModelProvider', () => {
  it('builds a provider carrying the description, without making a request', () => {
    const provider = createModelProvider({ baseUrl: 'http://127.0.0.1:1/v1', model: 'x', api: 'responses' });
    expect(provider.description).toMatchObject({
      kind: 'custom',
      api: 'responses',
      baseUrl: 'http://127.0.0.1:1/v1',
    });
  });
});
