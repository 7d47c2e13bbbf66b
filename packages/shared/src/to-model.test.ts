/**
 * @module to-model.test
 * Unit tests for `to-model.ts`: one group per rule of ADR 005, fed with the real builders from
 * `result.ts` and with hand-written results that no builder would produce.
 */
import { describe, expect, it } from 'vitest';
import { fail, ok, okList, okText } from './result.js';
import {
  DEFAULT_MODEL_BUDGET_CHARS,
  describeContent,
  failureToModel,
  MIN_MODEL_BUDGET_CHARS,
  resultToModel,
} from './to-model.js';

/** "hello" in standard base64: 5 bytes, one padding character. */
const HELLO_BASE64 = 'aGVsbG8=';

const MALFORMED = '{"error":"The server returned a malformed tool result."}';

/** Base64 of `bytes` zero bytes, as a server would send an image or a blob of that size. */
function base64OfSize(bytes: number): string {
  return Buffer.alloc(bytes).toString('base64');
}

/** The numbers in a truncation marker, or undefined when there is no marker at the end. */
function markerOf(text: string): { shown: number; total: number } | undefined {
  const match = /\n… \[truncated: showed (\d+) of (\d+) characters\]$/.exec(text);
  return match ? { shown: Number(match[1]), total: Number(match[2]) } : undefined;
}

describe('resultToModel', () => {
  describe('error results (rule 1)', () => {
    it('tells the model the tool failed when isError is true', () => {
      const view = resultToModel(fail('Unknown city "Osloo". Did you mean "Oslo"?'));
      expect(view).toEqual({
        text: '{"error":"Unknown city \\"Osloo\\". Did you mean \\"Oslo\\"?"}',
        source: 'error',
        truncated: false,
      });
      expect(JSON.parse(view.text)).toEqual({ error: 'Unknown city "Osloo". Did you mean "Oslo"?' });
    });

    it('joins every non-blank text block with a newline when an error has several', () => {
      const result = {
        content: [
          { type: 'text', text: 'No task with id 7.' },
          { type: 'text', text: '  ' },
          { type: 'text', text: 'List tasks to see valid ids.' },
        ],
        isError: true,
      };
      expect(JSON.parse(resultToModel(result).text)).toEqual({
        error: 'No task with id 7.\nList tasks to see valid ids.',
      });
    });

    it('adds structuredContent as details when an error result carries it', () => {
      const result = {
        content: [{ type: 'text', text: 'Rate limited.' }],
        structuredContent: { retryAfterSeconds: 30 },
        isError: true,
      };
      expect(resultToModel(result)).toEqual({
        text: '{"error":"Rate limited.","details":{"retryAfterSeconds":30}}',
        source: 'error',
        truncated: false,
      });
    });

    it('checks isError before structuredContent so a failure never reads as data', () => {
      const result = { content: [], structuredContent: { temperature: 4 }, isError: true };
      const view = resultToModel(result);
      expect(view.source).toBe('error');
      expect(JSON.parse(view.text)).toEqual({
        error: 'The tool reported an error without a message.',
        details: { temperature: 4 },
      });
    });

    it('describes non-text content as attachments when an error carries it', () => {
      const result = {
        content: [
          { type: 'text', text: 'Render failed.' },
          { type: 'image', data: HELLO_BASE64, mimeType: 'image/png' },
        ],
        isError: true,
      };
      expect(resultToModel(result).text).toBe(
        '{"error":"Render failed.","attachments":["[image: image/png, 5 B]"]}',
      );
    });

    it.each([
      ['no content', []],
      ['only blank text', [{ type: 'text', text: ' \n' }]],
    ])('falls back to a generic message when an error has %s', (_label, content) => {
      expect(resultToModel({ content, isError: true })).toEqual({
        text: '{"error":"The tool reported an error without a message."}',
        source: 'error',
        truncated: false,
      });
    });

    it.each([
      ['false', false],
      ['the string "true"', 'true'],
      ['1', 1],
    ])('does not treat the result as an error when isError is %s', (_label, isError) => {
      expect(resultToModel({ content: [{ type: 'text', text: 'Done.' }], isError }).source).toBe('text');
    });
  });

  describe('structured results (rule 2)', () => {
    it('sends only the JSON when the text block repeats structuredContent', () => {
      const view = resultToModel(ok({ city: 'Oslo', temperature: 4, tags: ['rain'] }));
      expect(view).toEqual({
        text: '{"city":"Oslo","temperature":4,"tags":["rain"]}',
        source: 'structured',
        truncated: false,
      });
    });

    it('sends the wrapped list as JSON when the result comes from okList', () => {
      expect(resultToModel(okList([{ id: 1 }, { id: 2 }]))).toEqual({
        text: '{"items":[{"id":1},{"id":2}],"count":2}',
        source: 'structured',
        truncated: false,
      });
    });

    it('drops the text when it is the same JSON with another key order and spacing', () => {
      const result = {
        content: [{ type: 'text', text: '{\n  "b": [1, {"y": 2, "x": 1}],\n  "a": "z"\n}' }],
        structuredContent: { a: 'z', b: [1, { x: 1, y: 2 }] },
      };
      expect(resultToModel(result)).toEqual({
        text: '{"a":"z","b":[1,{"x":1,"y":2}]}',
        source: 'structured',
        truncated: false,
      });
    });

    it('drops empty and blank text blocks beside structuredContent', () => {
      const result = {
        content: [
          { type: 'text', text: '' },
          { type: 'text', text: '\n\t ' },
        ],
        structuredContent: { count: 0 },
      };
      expect(resultToModel(result).text).toBe('{"count":0}');
    });

    it('keeps a human summary next to the data and labels both when the text says more', () => {
      const view = resultToModel(ok({ city: 'Oslo', temperature: 4 }, { summary: 'Oslo: 4°C, light rain' }));
      expect(view).toEqual({
        text: '{"structuredContent":{"city":"Oslo","temperature":4},"text":"Oslo: 4°C, light rain"}',
        source: 'structured+text',
        truncated: false,
      });
    });

    it.each([
      ['different values', '{"temperature":5}'],
      ['a subset of the fields', '{}'],
      ['an array where the data is an object', '[]'],
      ['text that is not JSON', 'temperature: 4'],
    ])('keeps text that is JSON of %s', (_label, text) => {
      const result = { content: [{ type: 'text', text }], structuredContent: { temperature: 4 } };
      const view = resultToModel(result);
      expect(view.source).toBe('structured+text');
      expect(JSON.parse(view.text)).toEqual({ structuredContent: { temperature: 4 }, text });
    });

    it('joins only the text blocks that say more when some repeat the data', () => {
      const result = {
        content: [
          { type: 'text', text: 'First.' },
          { type: 'text', text: '{"n":1}' },
          { type: 'text', text: 'Second.' },
        ],
        structuredContent: { n: 1 },
      };
      expect(JSON.parse(resultToModel(result).text)).toEqual({
        structuredContent: { n: 1 },
        text: 'First.\nSecond.',
      });
    });

    it.each([
      ['an array', [1, 'two', { three: 3 }], '[1,"two",{"three":3}]'],
      ['a number', 42, '42'],
      ['a string', 'hello', '"hello"'],
      ['a boolean', false, 'false'],
      ['null', null, 'null'],
    ])('sends %s in structuredContent as JSON without crashing', (_label, structuredContent, json) => {
      const view = resultToModel({ content: [{ type: 'text', text: ` ${json} ` }], structuredContent });
      expect(view).toEqual({ text: json, source: 'structured', truncated: false });
    });

    it('labels the JSON and lists attachments when non-text content sits beside the data', () => {
      const result = {
        content: [
          { type: 'text', text: '{"city":"Oslo"}' },
          {
            type: 'resource_link',
            uri: 'https://example.com/oslo.png',
            name: 'oslo.png',
            mimeType: 'image/png',
          },
        ],
        structuredContent: { city: 'Oslo' },
      };
      expect(resultToModel(result)).toEqual({
        text: '{"structuredContent":{"city":"Oslo"},"attachments":["[resource link: oslo.png https://example.com/oslo.png (image/png)]"]}',
        source: 'structured',
        truncated: false,
      });
    });

    it('puts data, text and attachments in one labelled object when all three are present', () => {
      const result = {
        content: [
          { type: 'text', text: 'Chart attached.' },
          { type: 'image', data: HELLO_BASE64, mimeType: 'image/png' },
        ],
        structuredContent: { points: 3 },
      };
      const view = resultToModel(result);
      expect(view.source).toBe('structured+text');
      expect(view.text).toBe(
        '{"structuredContent":{"points":3},"text":"Chart attached.","attachments":["[image: image/png, 5 B]"]}',
      );
    });

    it('sends structuredContent even when content is missing', () => {
      expect(resultToModel({ structuredContent: { a: 1 } }).text).toBe('{"a":1}');
    });

    it('sends the JSON form of the data when it holds undefined fields or dates', () => {
      const at = new Date('2026-11-21T10:00:00Z');
      const view = resultToModel({ content: [], structuredContent: { at, gone: undefined } });
      expect(view.text).toBe('{"at":"2026-11-21T10:00:00.000Z"}');
    });
  });

  describe('text results (rule 3)', () => {
    it('sends the text as it is when the result comes from okText', () => {
      expect(resultToModel(okText('Task 3 deleted.'))).toEqual({
        text: 'Task 3 deleted.',
        source: 'text',
        truncated: false,
      });
    });

    it('joins text blocks with a newline when there are several', () => {
      const result = {
        content: [
          { type: 'text', text: 'Line one.' },
          { type: 'text', text: 'Line two.' },
        ],
      };
      expect(resultToModel(result).text).toBe('Line one.\nLine two.');
    });

    it('puts descriptors in order among the text when content is mixed', () => {
      const result = {
        content: [
          { type: 'text', text: 'Before.' },
          { type: 'audio', data: HELLO_BASE64, mimeType: 'audio/wav' },
          { type: 'text', text: 'After.' },
          { type: 'object', object: { a: 1 } },
        ],
        isError: false,
      };
      expect(resultToModel(result)).toEqual({
        text: 'Before.\n[audio: audio/wav, 5 B]\nAfter.\n[unsupported content type "object"]',
        source: 'text',
        truncated: false,
      });
    });

    it('sends only descriptors when a result holds nothing but an image', () => {
      const result = { content: [{ type: 'image', data: base64OfSize(1234), mimeType: 'image/png' }] };
      expect(resultToModel(result)).toEqual({
        text: '[image: image/png, 1.2 KB]',
        source: 'text',
        truncated: false,
      });
    });
  });

  describe('budget (rule 5)', () => {
    it('cuts a 1 MB text to the default budget and ends it with the marker', () => {
      const text = 'x'.repeat(1024 * 1024);
      const view = resultToModel(okText(text));
      expect(view.truncated).toBe(true);
      expect(view.source).toBe('text');
      expect(view.text.length).toBeLessThanOrEqual(DEFAULT_MODEL_BUDGET_CHARS);
      const shown = markerOf(view.text)?.shown ?? 0;
      expect(shown).toBeGreaterThan(DEFAULT_MODEL_BUDGET_CHARS - 100);
      expect(view.text).toBe(`${'x'.repeat(shown)}\n… [truncated: showed ${shown} of 1048576 characters]`);
    });

    it('cuts structured content with 100k items and keeps the structured source', () => {
      const items = Array.from({ length: 100_000 }, (_, id) => ({ id, title: `Task ${id}`, done: false }));
      const result = okList(items);
      const view = resultToModel(result);
      expect(view.truncated).toBe(true);
      expect(view.source).toBe('structured');
      expect(view.text.length).toBeLessThanOrEqual(DEFAULT_MODEL_BUDGET_CHARS);
      expect(view.text.startsWith('{"items":[{"id":0,"title":"Task 0","done":false}')).toBe(true);
      expect(markerOf(view.text)?.total).toBe(JSON.stringify(result.structuredContent).length);
    });

    it.each([MIN_MODEL_BUDGET_CHARS, 1000, 4096])(
      'keeps the whole text, marker included, within a budget of %i',
      (budgetChars) => {
        const view = resultToModel(okText('y'.repeat(50_000)), { budgetChars });
        expect(view.text.length).toBeLessThanOrEqual(budgetChars);
        expect(view.text.length).toBeGreaterThan(budgetChars - 5);
        expect(markerOf(view.text)).toBeDefined();
      },
    );

    it('leaves a text of exactly the budget alone and cuts one character more', () => {
      expect(resultToModel(okText('z'.repeat(500)), { budgetChars: 500 })).toEqual({
        text: 'z'.repeat(500),
        source: 'text',
        truncated: false,
      });
      const cut = resultToModel(okText('z'.repeat(501)), { budgetChars: 500 });
      expect(cut.truncated).toBe(true);
      expect(cut.text.length).toBeLessThanOrEqual(500);
      expect(markerOf(cut.text)?.total).toBe(501);
    });

    it('never leaves half of a surrogate pair when it cuts through emoji', () => {
      for (const budgetChars of [300, 301]) {
        const view = resultToModel(okText('🌧'.repeat(10_000)), { budgetChars });
        const shown = view.text.slice(0, markerOf(view.text)?.shown);
        expect(shown).toBe('🌧'.repeat(shown.length / 2));
        expect(view.text.length).toBeLessThanOrEqual(budgetChars);
      }
    });

    it('bounds error results too and keeps the error source', () => {
      const view = resultToModel(fail('e'.repeat(100_000)), { budgetChars: 1000 });
      expect(view.source).toBe('error');
      expect(view.truncated).toBe(true);
      expect(view.text.startsWith('{"error":"eee')).toBe(true);
      expect(view.text.length).toBeLessThanOrEqual(1000);
    });

    it('describes a huge base64 image in a few characters instead of cutting it', () => {
      const data = 'A'.repeat(8 * 1024 * 1024);
      const view = resultToModel({ content: [{ type: 'image', data, mimeType: 'image/jpeg' }] });
      expect(view).toEqual({ text: '[image: image/jpeg, 6.0 MB]', source: 'text', truncated: false });
    });

    it.each([
      ['zero', 0],
      ['negative', -1],
      ['just below the minimum', MIN_MODEL_BUDGET_CHARS - 1],
      ['a fraction', 1000.5],
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
      ['a numeric string', '1000'],
    ])('throws a RangeError when budgetChars is %s', (_label, budgetChars) => {
      expect(() => resultToModel(okText('x'), { budgetChars: budgetChars as number })).toThrow(RangeError);
      expect(() => failureToModel('x', undefined, { budgetChars: budgetChars as number })).toThrow(
        RangeError,
      );
    });
  });

  describe('empty results (rule 6)', () => {
    it.each([
      ['an empty content array', { content: [] }],
      ['no content at all', {}],
      ['only empty text', okText('')],
      [
        'only blank text blocks',
        {
          content: [
            { type: 'text', text: ' ' },
            { type: 'text', text: '\n' },
          ],
        },
      ],
    ])('says the tool returned nothing when it gets %s', (_label, result) => {
      expect(resultToModel(result)).toEqual({
        text: '(the tool returned no content)',
        source: 'empty',
        truncated: false,
      });
    });
  });

  describe('untrusted results (rule 7)', () => {
    it.each([
      ['null', null],
      ['undefined', undefined],
      ['a string', 'all good'],
      ['a number', 42],
      ['a boolean', true],
      ['an array', [{ type: 'text', text: 'hi' }]],
      ['content that is a string', { content: 'hello', isError: false }],
      ['content that is an object', { content: { type: 'text', text: 'hi' } }],
      ['structuredContent that is a BigInt', { content: [], structuredContent: 1n }],
      ['structuredContent that is a function', { content: [], structuredContent: () => 1 }],
    ])('tells the model the result is malformed when it gets %s', (_label, result) => {
      expect(resultToModel(result)).toEqual({ text: MALFORMED, source: 'error', truncated: false });
    });

    it('tells the model the result is malformed when structuredContent is cyclic', () => {
      const cyclic: Record<string, unknown> = { a: 1 };
      cyclic.self = cyclic;
      expect(resultToModel({ content: [], structuredContent: cyclic }).text).toBe(MALFORMED);
    });

    it('tells the model the result is malformed when reading it throws', () => {
      const hostile = {
        get content(): never {
          throw new Error('boom');
        },
      };
      expect(resultToModel(hostile).text).toBe(MALFORMED);
    });

    it('describes null and junk items inside content instead of throwing', () => {
      const result = { content: [null, 7, 'text', { type: 'text', text: 'Still here.' }] };
      expect(resultToModel(result).text).toBe(
        '[unsupported content]\n[unsupported content]\n[unsupported content]\nStill here.',
      );
    });

    it('ignores fields the spec does not define, such as _meta and resultType', () => {
      const result = { ...okText('Hi.'), resultType: 'complete', _meta: { trace: 'abc' }, requestId: 1 };
      expect(resultToModel(result).text).toBe('Hi.');
    });
  });
});

describe('describeContent', () => {
  it('returns the text of a text block unchanged', () => {
    expect(describeContent({ type: 'text', text: 'Oslo: 4°C' })).toBe('Oslo: 4°C');
  });

  it('gives the mime type and decoded size of an image instead of its base64', () => {
    expect(describeContent({ type: 'image', data: base64OfSize(1234), mimeType: 'image/png' })).toBe(
      '[image: image/png, 1.2 KB]',
    );
  });

  it('gives the mime type and decoded size of audio', () => {
    expect(describeContent({ type: 'audio', data: base64OfSize(3482), mimeType: 'audio/wav' })).toBe(
      '[audio: audio/wav, 3.4 KB]',
    );
  });

  it.each([
    ['no padding', 'aGVs', '3 B'],
    ['one padding character', HELLO_BASE64, '5 B'],
    ['two padding characters', 'aGk=', '2 B'],
    ['nothing', '', '0 B'],
    ['1023 bytes', base64OfSize(1023), '1023 B'],
    ['1024 bytes', base64OfSize(1024), '1.0 KB'],
    ['3.5 MB', base64OfSize(3.5 * 1024 * 1024), '3.5 MB'],
  ])('computes the size from the base64 length when the data has %s', (_label, data, size) => {
    expect(describeContent({ type: 'image', data, mimeType: 'image/gif' })).toBe(
      `[image: image/gif, ${size}]`,
    );
  });

  it('says the type is unknown when an image has no mime type', () => {
    expect(describeContent({ type: 'image', data: HELLO_BASE64 })).toBe('[image: unknown type, 5 B]');
  });

  it('names a resource link by name and uri, with its mime type when given', () => {
    expect(describeContent({ type: 'resource_link', uri: 'file:///notes.txt', name: 'notes.txt' })).toBe(
      '[resource link: notes.txt file:///notes.txt]',
    );
    expect(
      describeContent({ type: 'resource_link', uri: 'file:///a.csv', name: 'a.csv', mimeType: 'text/csv' }),
    ).toBe('[resource link: a.csv file:///a.csv (text/csv)]');
  });

  it('inlines an embedded text resource under a header', () => {
    const block = {
      type: 'resource',
      resource: { uri: 'file:///a.md', mimeType: 'text/markdown', text: '# A' },
    };
    expect(describeContent(block)).toBe('[resource file:///a.md (text/markdown)]\n# A');
    expect(describeContent({ type: 'resource', resource: { uri: 'file:///b.txt', text: 'b' } })).toBe(
      '[resource file:///b.txt]\nb',
    );
  });

  it('describes an embedded blob by uri, mime type and size', () => {
    const block = {
      type: 'resource',
      resource: { uri: 'file:///report.pdf', mimeType: 'application/pdf', blob: base64OfSize(2048) },
    };
    expect(describeContent(block)).toBe('[resource file:///report.pdf: application/pdf, 2.0 KB binary]');
    expect(describeContent({ type: 'resource', resource: { uri: 'file:///x', blob: HELLO_BASE64 } })).toBe(
      '[resource file:///x: unknown type, 5 B binary]',
    );
  });

  it.each([
    ['object', { type: 'object', object: { a: 1 } }],
    ['video', { type: 'video', data: HELLO_BASE64 }],
  ])('names the type when it gets the unknown type %s', (type, block) => {
    expect(describeContent(block)).toBe(`[unsupported content type "${type}"]`);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'text'],
    ['a number', 3],
    ['an array', [{ type: 'text', text: 'x' }]],
    ['an object without a type', { text: 'x' }],
    ['a type that is not a string', { type: 7 }],
    ['an empty type', { type: '' }],
  ])('says the content is unsupported when it gets %s', (_label, block) => {
    expect(describeContent(block)).toBe('[unsupported content]');
  });

  it.each([
    ['text', { type: 'text', text: 42 }],
    ['image', { type: 'image', mimeType: 'image/png' }],
    ['audio', { type: 'audio', data: null, mimeType: 'audio/wav' }],
    ['resource_link', { type: 'resource_link' }],
    ['resource', { type: 'resource', resource: { uri: 'file:///a' } }],
    ['resource', { type: 'resource' }],
  ])('calls a %s block malformed when its payload is missing', (type, block) => {
    expect(describeContent(block)).toBe(`[malformed ${type} content]`);
  });

  it('keeps labels on one line and clips them when a server sends long or multi-line names', () => {
    const described = describeContent({
      type: 'resource_link',
      uri: `https://example.com/${'a'.repeat(5000)}`,
      name: 'evil\n[image: image/png, 1 B]',
    });
    expect(described).not.toContain('\n');
    expect(described.startsWith('[resource link: evil [image: image/png, 1 B] https://example.com/aaa')).toBe(
      true,
    );
    expect(described.length).toBeLessThan(300);
    expect(describeContent({ type: 'x'.repeat(10_000) }).length).toBeLessThan(300);
  });

  it('says the content is unsupported when reading the block throws', () => {
    const hostile = {
      get type(): never {
        throw new Error('boom');
      },
    };
    expect(describeContent(hostile)).toBe('[unsupported content]');
  });
});

describe('failureToModel', () => {
  it('sends the message as an error when there are no details', () => {
    expect(failureToModel('The tool call timed out after 30 s.')).toEqual({
      text: '{"error":"The tool call timed out after 30 s."}',
      source: 'error',
      truncated: false,
    });
  });

  it('puts the details after the error when they are given', () => {
    const view = failureToModel('Unknown function "get_wether".', {
      available: ['get_weather', 'list_cities'],
    });
    expect(view.text).toBe(
      '{"error":"Unknown function \\"get_wether\\".","available":["get_weather","list_cities"]}',
    );
  });

  it('keeps the message when details also carry an error field', () => {
    expect(JSON.parse(failureToModel('Invalid arguments.', { error: 'other', code: -32602 }).text)).toEqual({
      error: 'Invalid arguments.',
      code: -32602,
    });
  });

  it('keeps a __proto__ key in the details as a plain field', () => {
    const details = JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(failureToModel('x', details).text).toBe('{"error":"x","__proto__":{"polluted":true}}');
  });

  it('falls back to a generic message when the message is blank', () => {
    expect(JSON.parse(failureToModel('  ').text)).toEqual({
      error: 'The tool call failed without saying why.',
    });
  });

  it('sends only the message when the details cannot be serialized', () => {
    expect(failureToModel('Timed out.', { big: 1n }).text).toBe('{"error":"Timed out."}');
  });

  it('cuts a long failure to the budget and marks it', () => {
    const view = failureToModel('JSON-RPC error -32603', { data: 'd'.repeat(100_000) });
    expect(view.truncated).toBe(true);
    expect(view.text.length).toBeLessThanOrEqual(DEFAULT_MODEL_BUDGET_CHARS);
    expect(markerOf(view.text)).toBeDefined();
  });
});
