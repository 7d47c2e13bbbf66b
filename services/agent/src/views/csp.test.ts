/**
 * Tests for `csp.ts`: a view's declared origins are kept only when each is a plain origin, and the
 * policy the sandbox serves names them in their own directives and nowhere else.
 */
import { describe, expect, it } from 'vitest';
import type { ViewCsp } from '../types.js';
import { cspHeader, EMPTY_CSP, isCspOrigin, MAX_CSP_ORIGINS, parseStrictCsp, readViewCsp } from './csp.js';

const HOST = 'http://127.0.0.1:3001';

/** Entries that must never reach the policy, each with why. */
const NOT_ORIGINS: Array<[string, unknown]> = [
  ['a bare wildcard', '*'],
  ['a keyword', "'unsafe-eval'"],
  ['a self keyword', "'self'"],
  ['a path', 'https://a.com/path'],
  ['a trailing slash', 'https://a.com/'],
  ['a second directive', 'https://a.com; script-src *'],
  ['a space', 'https://a.com https://b.com'],
  ['a scheme source', 'data:'],
  ['a bare scheme', 'https:'],
  ['a wildcard host', 'https://*'],
  ['a wildcard inside the host', 'https://a.*.com'],
  ['no scheme', 'a.com'],
  ['another scheme', 'ftp://a.com'],
  ['user info', 'https://user@a.com'],
  ['a query', 'https://a.com?x=1'],
  ['a number', 443],
  ['null', null],
  ['an object', { origin: 'https://a.com' }],
];

/** The policy as directive → sources. */
function directives(header: string): Map<string, string[]> {
  return new Map(
    header.split('; ').map((part) => {
      const [name = '', ...sources] = part.split(' ');
      return [name, sources];
    }),
  );
}

describe('readViewCsp', () => {
  it('keeps plain origins: http(s) and ws(s), a port, one leading wildcard label', () => {
    const origins = [
      'https://api.example.com',
      'http://localhost:3000',
      'wss://live.example.com:8443',
      'https://*.example.com',
    ];
    const dropped: string[] = [];
    const csp = readViewCsp(
      {
        connectDomains: origins,
        resourceDomains: ['https://cdn.example.com'],
        frameDomains: ['https://embed.example.com'],
        baseUriDomains: ['https://base.example.com'],
      },
      (entry) => dropped.push(entry),
    );
    expect(csp).toEqual({
      connectDomains: origins,
      resourceDomains: ['https://cdn.example.com'],
      frameDomains: ['https://embed.example.com'],
      baseUriDomains: ['https://base.example.com'],
    });
    expect(dropped).toEqual([]);
  });

  it.each(NOT_ORIGINS)('drops %s and reports it', (_label, entry) => {
    const dropped: string[] = [];
    const csp = readViewCsp({ connectDomains: [entry, 'https://ok.example.com'] }, (e) => dropped.push(e));
    expect(csp.connectDomains).toEqual(['https://ok.example.com']);
    expect(isCspOrigin(entry)).toBe(false);
    expect(dropped).toEqual([`connectDomains: ${String(entry)}`]);
  });

  it('lower-cases an origin and keeps each once', () => {
    const csp = readViewCsp({
      resourceDomains: ['HTTPS://CDN.Example.COM', 'https://cdn.example.com', 'https://cdn.example.com'],
    });
    expect(csp.resourceDomains).toEqual(['https://cdn.example.com']);
  });

  it(`keeps at most ${MAX_CSP_ORIGINS} origins a list, and reports the rest`, () => {
    const many = Array.from({ length: MAX_CSP_ORIGINS + 8 }, (_, i) => `https://h${i}.example.com`);
    const dropped: string[] = [];
    const csp = readViewCsp({ frameDomains: many, connectDomains: many }, (e) => dropped.push(e));
    expect(csp.frameDomains).toEqual(many.slice(0, MAX_CSP_ORIGINS));
    expect(csp.connectDomains).toEqual(many.slice(0, MAX_CSP_ORIGINS));
    expect(dropped).toHaveLength(16);
  });

  it('reports a long entry cut short, so a server cannot fill the log', () => {
    const dropped: string[] = [];
    readViewCsp({ baseUriDomains: [`https://${'a'.repeat(5_000)}.com`] }, (e) => dropped.push(e));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]?.length).toBeLessThanOrEqual('baseUriDomains: '.length + 80);
  });

  it('reads nothing declared from anything that is not an object of lists', () => {
    for (const raw of [undefined, null, '*', 42, [], { connectDomains: 'https://a.com' }, { other: ['*'] }]) {
      expect(readViewCsp(raw), JSON.stringify(raw)).toEqual(EMPTY_CSP);
    }
  });
});

describe('parseStrictCsp', () => {
  it('takes nothing declared, and plain origins, lower-cased and without duplicates', () => {
    expect(parseStrictCsp({})).toEqual(EMPTY_CSP);
    expect(
      parseStrictCsp({ connectDomains: ['https://API.example.com', 'https://api.example.com'] }),
    ).toEqual({ ...EMPTY_CSP, connectDomains: ['https://api.example.com'] });
  });

  it('refuses a key it does not know', () => {
    expect(parseStrictCsp({ scriptDomains: ['https://a.com'] })).toBeUndefined();
    expect(parseStrictCsp({ connectDomains: [], 'script-src': ['*'] })).toBeUndefined();
  });

  it.each(NOT_ORIGINS)('refuses the whole list for %s', (_label, entry) => {
    expect(parseStrictCsp({ resourceDomains: ['https://ok.example.com', entry] })).toBeUndefined();
  });

  it(`refuses more than ${MAX_CSP_ORIGINS} origins in a list`, () => {
    const many = Array.from({ length: MAX_CSP_ORIGINS + 1 }, (_, i) => `https://h${i}.example.com`);
    expect(parseStrictCsp({ connectDomains: many })).toBeUndefined();
    expect(parseStrictCsp({ connectDomains: many.slice(0, MAX_CSP_ORIGINS) })?.connectDomains).toHaveLength(
      MAX_CSP_ORIGINS,
    );
  });

  it('refuses what is not an object', () => {
    for (const raw of [null, undefined, 'https://a.com', 42, ['https://a.com']]) {
      expect(parseStrictCsp(raw), JSON.stringify(raw)).toBeUndefined();
    }
  });
});

describe('cspHeader', () => {
  it('lets a view that declared nothing fetch, frame or load from no origin, and only the host frame it', () => {
    const policy = directives(cspHeader(EMPTY_CSP, HOST));
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('connect-src')).toEqual(["'none'"]);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'unsafe-inline'"]);
    expect(policy.get('style-src')).toEqual(["'unsafe-inline'"]);
    expect(policy.get('img-src')).toEqual(['data:', 'blob:']);
    expect(policy.get('font-src')).toEqual(['data:']);
    expect(policy.get('media-src')).toEqual(['data:', 'blob:']);
    expect(policy.get('frame-ancestors')).toEqual([HOST]);
    const header = cspHeader(EMPTY_CSP, HOST);
    expect(header).not.toContain('unsafe-eval');
    expect(header).not.toMatch(/(^|\s)\*(\s|;|$)/);
  });

  it('names each declared origin in its own directives only', () => {
    const csp: ViewCsp = {
      connectDomains: ['https://api.example.com'],
      resourceDomains: ['https://cdn.example.com'],
      frameDomains: ['https://embed.example.com'],
      baseUriDomains: ['https://base.example.com'],
    };
    const policy = directives(cspHeader(csp, HOST));
    const where = (origin: string) =>
      [...policy.entries()].filter(([, sources]) => sources.includes(origin)).map(([name]) => name);
    expect(where('https://api.example.com')).toEqual(['connect-src']);
    expect(where('https://cdn.example.com')).toEqual([
      'script-src',
      'style-src',
      'img-src',
      'font-src',
      'media-src',
    ]);
    expect(where('https://embed.example.com')).toEqual(['frame-src']);
    expect(where('https://base.example.com')).toEqual(['base-uri']);
    expect(policy.get('script-src')).toEqual(["'unsafe-inline'", 'https://cdn.example.com']);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual([HOST]);
  });
});
