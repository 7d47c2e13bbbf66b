/**
 * Tests for `read-view.ts`: a `resources/read` answer becomes a view only when it holds one HTML
 * document of the MCP Apps MIME type for the URI asked, within the size bound.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_CSP } from './csp.js';
import { MAX_VIEW_HTML_BYTES, toViewResource, ViewError } from './read-view.js';
import { VIEW_MIME_TYPE } from './ui-meta.js';

const URI = 'ui://tasks/board';
const HTML = '<!doctype html><title>Board</title><p>Tâches ✓</p>';

function answer(content: Record<string, unknown>): unknown {
  return { contents: [{ uri: URI, mimeType: VIEW_MIME_TYPE, ...content }] };
}

/** The ViewError `toViewResource` throws for `result`, or fails the test. */
function refusal(result: unknown): ViewError {
  try {
    toViewResource('workshop', URI, result);
  } catch (error) {
    expect(error).toBeInstanceOf(ViewError);
    expect((error as ViewError).kind).toBe('bad_resource');
    return error as ViewError;
  }
  throw new Error('the answer was taken for a view');
}

describe('toViewResource', () => {
  it('takes a text view of the MCP Apps MIME type, with nothing declared', () => {
    const view = toViewResource('workshop', URI, answer({ text: HTML }));
    expect(view).toEqual({ server: 'workshop', uri: URI, html: HTML, csp: EMPTY_CSP });
    expect('prefersBorder' in view).toBe(false);
  });

  it('takes a base64 blob and decodes it as UTF-8', () => {
    const view = toViewResource('workshop', URI, answer({ blob: Buffer.from(HTML).toString('base64') }));
    expect(view.html).toBe(HTML);
  });

  it('takes the MIME type in any case and with a space after the semicolon', () => {
    for (const mimeType of ['text/html; profile=mcp-app', 'Text/HTML;Profile=MCP-App']) {
      expect(toViewResource('workshop', URI, answer({ mimeType, text: HTML })).html).toBe(HTML);
    }
  });

  it('refuses another MIME type, or none', () => {
    for (const mimeType of ['text/html', 'text/html;profile=other', 'application/javascript', '']) {
      expect(refusal(answer({ mimeType, text: HTML })).message).toContain(`not ${VIEW_MIME_TYPE}`);
    }
    expect(refusal(answer({ mimeType: undefined, text: HTML })).message).toContain('of no MIME type');
    expect(refusal(answer({ mimeType: 7, text: HTML })).message).toContain(`not ${VIEW_MIME_TYPE}`);
  });

  it('refuses an answer without contents, or whose contents are for another URI', () => {
    for (const result of [
      undefined,
      null,
      'html',
      {},
      { contents: [] },
      { contents: 'x' },
      { contents: [null] },
    ]) {
      expect(refusal(result).message, JSON.stringify(result)).toContain('holds no contents');
    }
    const other = { contents: [{ uri: 'ui://tasks/other', mimeType: VIEW_MIME_TYPE, text: HTML }] };
    expect(refusal(other).message).toContain('holds no contents');
    const prefix = { contents: [{ uri: `${URI}/`, mimeType: VIEW_MIME_TYPE, text: HTML }] };
    expect(refusal(prefix).message).toContain('holds no contents');
  });

  it('picks the contents for its URI among others', () => {
    const result = {
      contents: [
        { uri: 'ui://tasks/other', mimeType: 'text/plain', text: 'not this' },
        { uri: URI, mimeType: VIEW_MIME_TYPE, text: HTML },
      ],
    };
    expect(toViewResource('workshop', URI, result).html).toBe(HTML);
  });

  it('refuses contents with neither text nor blob', () => {
    expect(refusal(answer({})).message).toContain('neither text nor blob');
    expect(refusal(answer({ text: 42 })).message).toContain('neither text nor blob');
  });

  it(`takes up to ${MAX_VIEW_HTML_BYTES} bytes of text, counted in bytes, and refuses more`, () => {
    const largest = 'a'.repeat(MAX_VIEW_HTML_BYTES);
    expect(toViewResource('workshop', URI, answer({ text: largest })).html).toHaveLength(MAX_VIEW_HTML_BYTES);
    expect(refusal(answer({ text: `${largest}a` })).message).toContain('larger than');
    // Fewer characters than the bound, more bytes: two bytes each in UTF-8.
    expect(refusal(answer({ text: 'é'.repeat(MAX_VIEW_HTML_BYTES / 2 + 1) })).message).toContain(
      'larger than',
    );
  });

  it(`takes up to ${MAX_VIEW_HTML_BYTES} bytes as a blob, and refuses even one byte more`, () => {
    const blob = (bytes: number) => Buffer.alloc(bytes, 'a').toString('base64');
    expect(toViewResource('workshop', URI, answer({ blob: blob(MAX_VIEW_HTML_BYTES) })).html).toHaveLength(
      MAX_VIEW_HTML_BYTES,
    );
    for (const bytes of [MAX_VIEW_HTML_BYTES + 1, MAX_VIEW_HTML_BYTES + 2, 2 * MAX_VIEW_HTML_BYTES]) {
      expect(refusal(answer({ blob: blob(bytes) })).message, String(bytes)).toContain('larger than');
    }
  });

  it('keeps prefersBorder when it is a boolean, and the declared origins, reporting those left out', () => {
    const dropped: string[] = [];
    const view = toViewResource(
      'workshop',
      URI,
      answer({
        text: HTML,
        _meta: {
          ui: {
            prefersBorder: false,
            csp: {
              connectDomains: ['https://api.example.com', '*', "'unsafe-eval'"],
              frameDomains: ['data:'],
            },
          },
        },
      }),
      (entry) => dropped.push(entry),
    );
    expect(view.prefersBorder).toBe(false);
    expect(view.csp).toEqual({ ...EMPTY_CSP, connectDomains: ['https://api.example.com'] });
    expect(dropped).toEqual(['connectDomains: *', "connectDomains: 'unsafe-eval'", 'frameDomains: data:']);

    expect(
      toViewResource('workshop', URI, answer({ text: HTML, _meta: { ui: { prefersBorder: true } } })),
    ).toMatchObject({ prefersBorder: true });
    const odd = toViewResource(
      'workshop',
      URI,
      answer({ text: HTML, _meta: { ui: { prefersBorder: 'yes' } } }),
    );
    expect('prefersBorder' in odd).toBe(false);
  });
});
