/**
 * @module schemas.test
 * Unit tests for the zod schemas in `schemas.ts`, one content type at a time, `isPlainObject` and `isRecord`.
 */
import { describe, expect, it } from 'vitest';
import {
  AnnotationsSchema,
  AudioContentSchema,
  ContentBlockSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  isPlainObject,
  isRecord,
  ResourceLinkSchema,
  StructuredContentSchema,
  TextContentSchema,
} from './schemas.js';

/** "hello" in standard base64. */
const BASE64 = 'aGVsbG8=';

/** Whether `schema` accepts `value`; keeps each expectation on one line. */
const accepts = (schema: { safeParse(value: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

describe('TextContentSchema', () => {
  it('accepts text with annotations and _meta', () => {
    const block = {
      type: 'text',
      text: 'hi',
      annotations: { audience: ['user'], priority: 0.5, lastModified: '2026-07-28T12:00:00Z' },
      _meta: { 'example.com/trace': 'abc' },
    };
    expect(accepts(TextContentSchema, block)).toBe(true);
  });

  it('rejects text that is not a string', () => {
    expect(accepts(TextContentSchema, { type: 'text', text: 42 })).toBe(false);
  });
});

describe('ImageContentSchema and AudioContentSchema', () => {
  it('accept base64 data with a mime type', () => {
    expect(accepts(ImageContentSchema, { type: 'image', data: BASE64, mimeType: 'image/png' })).toBe(true);
    expect(accepts(AudioContentSchema, { type: 'audio', data: BASE64, mimeType: 'audio/wav' })).toBe(true);
  });

  it.each([
    ['not base64', 'not base64!'],
    ['a data URL', `data:image/png;base64,${BASE64}`],
    ['missing padding', 'aGVsbG8'],
  ])('reject data that is %s', (_label, data) => {
    expect(accepts(ImageContentSchema, { type: 'image', data, mimeType: 'image/png' })).toBe(false);
    expect(accepts(AudioContentSchema, { type: 'audio', data, mimeType: 'audio/wav' })).toBe(false);
  });

  it('reject an empty mime type', () => {
    expect(accepts(ImageContentSchema, { type: 'image', data: BASE64, mimeType: '' })).toBe(false);
  });
});

describe('ResourceLinkSchema', () => {
  it('accepts a link with the optional Resource fields', () => {
    const link = {
      type: 'resource_link',
      uri: 'file:///notes.txt',
      name: 'notes.txt',
      title: 'Notes',
      description: 'Meeting notes',
      mimeType: 'text/plain',
      size: 120,
      icons: [{ src: 'https://example.com/icon.png', sizes: ['48x48'], theme: 'dark' }],
    };
    expect(accepts(ResourceLinkSchema, link)).toBe(true);
  });

  it('rejects a link without a name or with a negative size', () => {
    expect(accepts(ResourceLinkSchema, { type: 'resource_link', uri: 'file:///a' })).toBe(false);
    const negative = { type: 'resource_link', uri: 'file:///a', name: 'a', size: -1 };
    expect(accepts(ResourceLinkSchema, negative)).toBe(false);
  });
});

describe('EmbeddedResourceSchema', () => {
  it('accepts a resource with text or with a base64 blob', () => {
    const text = { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hi' } };
    const blob = { type: 'resource', resource: { uri: 'file:///a.bin', blob: BASE64 } };
    expect(accepts(EmbeddedResourceSchema, text)).toBe(true);
    expect(accepts(EmbeddedResourceSchema, blob)).toBe(true);
  });

  it.each([
    ['neither text nor blob', { uri: 'file:///a' }],
    ['both text and blob', { uri: 'file:///a', text: 'hi', blob: BASE64 }],
    ['a blob that is not base64', { uri: 'file:///a', blob: 'not base64!' }],
    ['no uri', { text: 'hi' }],
  ])('rejects a resource with %s', (_label, resource) => {
    expect(accepts(EmbeddedResourceSchema, { type: 'resource', resource })).toBe(false);
  });
});

describe('ContentBlockSchema', () => {
  it.each(['object', 'json', 'markdown', ''])('rejects the made-up content type "%s"', (type) => {
    expect(accepts(ContentBlockSchema, { type, text: '{}' })).toBe(false);
  });

  it('rejects fields the spec does not define', () => {
    expect(accepts(ContentBlockSchema, { type: 'text', text: 'hi', format: 'markdown' })).toBe(false);
  });
});

describe('AnnotationsSchema', () => {
  it('rejects a priority outside 0..1 and an unknown audience', () => {
    expect(accepts(AnnotationsSchema, { priority: 1.5 })).toBe(false);
    expect(accepts(AnnotationsSchema, { audience: ['system'] })).toBe(false);
  });
});

describe('StructuredContentSchema', () => {
  it('accepts a plain object', () => {
    expect(accepts(StructuredContentSchema, { items: [], count: 0 })).toBe(true);
  });

  it.each([
    ['an array', [1]],
    ['a string', 'x'],
    ['a number', 1],
    ['null', null],
  ])('rejects %s', (_label, value) => {
    expect(accepts(StructuredContentSchema, value)).toBe(false);
  });
});

describe('isPlainObject', () => {
  it('is true for object literals, JSON.parse output and prototype-less objects', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(JSON.parse('{"a":1}'))).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
  });

  it.each([
    ['an array', []],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'x'],
    ['a number', 1],
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    ['a class instance', new (class Thing {})()],
    ['a function', () => ({})],
  ])('is false for %s', (_label, value) => {
    expect(isPlainObject(value)).toBe(false);
  });
});

describe('isRecord', () => {
  it('is true for any non-array object, class instances included', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(JSON.parse('{"a":1}'))).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
    expect(isRecord(new Date(0))).toBe(true);
    expect(isRecord(new (class Thing {})())).toBe(true);
  });

  it.each([
    ['an array', []],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'x'],
    ['a number', 1],
    ['a function', () => ({})],
  ])('is false for %s', (_label, value) => {
    expect(isRecord(value)).toBe(false);
  });
});
