/**
 * Tests for the images a trace keeps for display (`summarizeResult` in `loop.ts`): only small,
 * well-formed raster images; everything else stays a descriptor in `otherContent`.
 */
import { describe, expect, it } from 'vitest';
import { summarizeResult } from './loop.js';
import { MAX_MEDIA_BASE64_CHARS, MAX_MEDIA_PER_CALL } from './trace.js';

/** A 1x1 PNG, as the conformance fixture `test_image_content` returns. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function image(mimeType: unknown, data: unknown) {
  return { type: 'image', mimeType, data };
}

describe('summarizeResult media', () => {
  it('keeps a small PNG, next to its descriptor and the text', () => {
    const result = summarizeResult({
      content: [{ type: 'text', text: 'here' }, image('image/png', PNG)],
    });
    expect(result.text).toEqual(['here']);
    expect(result.otherContent).toHaveLength(1);
    expect(result.media).toEqual([{ type: 'image', mimeType: 'image/png', data: PNG }]);
  });

  it('accepts JPEG, GIF and WebP, normalising the case of the type', () => {
    const result = summarizeResult({
      content: [image('image/JPEG', PNG), image('image/gif', PNG), image('image/webp', PNG)],
    });
    expect(result.media?.map((m) => m.mimeType)).toEqual(['image/jpeg', 'image/gif', 'image/webp']);
  });

  it('leaves out SVG (it can carry scripts), keeping only the descriptor', () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const result = summarizeResult({ content: [image('image/svg+xml', svg.toString('base64'))] });
    expect(result.media).toBeUndefined();
    expect(result.otherContent).toHaveLength(1);
  });

  it('leaves out an image over the size limit', () => {
    const big = 'A'.repeat(MAX_MEDIA_BASE64_CHARS + 4);
    const result = summarizeResult({ content: [image('image/png', big)] });
    expect(result.media).toBeUndefined();
    expect(result.otherContent).toHaveLength(1);
  });

  it('keeps an image exactly at the size limit', () => {
    const atLimit = 'A'.repeat(MAX_MEDIA_BASE64_CHARS);
    expect(summarizeResult({ content: [image('image/png', atLimit)] }).media).toHaveLength(1);
  });

  it('keeps at most the per-call limit', () => {
    const content = Array.from({ length: MAX_MEDIA_PER_CALL + 2 }, () => image('image/png', PNG));
    const result = summarizeResult({ content });
    expect(result.media).toHaveLength(MAX_MEDIA_PER_CALL);
    expect(result.otherContent).toHaveLength(MAX_MEDIA_PER_CALL + 2);
  });

  it('leaves out malformed images without throwing', () => {
    const result = summarizeResult({
      content: [
        image('image/png', 'not base64!'),
        image('image/png', '"><script>'),
        image('image/png', `${PNG}===`),
        image('image/png', ''),
        image('image/png', 42),
        image(undefined, PNG),
        { type: 'image' },
        null,
        'image',
      ],
    });
    expect(result.media).toBeUndefined();
    expect(result.otherContent).toHaveLength(9);
  });

  it('copes with results that are not objects', () => {
    expect(summarizeResult(null).media).toBeUndefined();
    expect(summarizeResult({ content: 'nope' }).media).toBeUndefined();
  });
});
