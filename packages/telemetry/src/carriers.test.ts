import { propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { describe, expect, it } from 'vitest';
import {
  capBaggage,
  headerGetter,
  MAX_BAGGAGE_BYTES,
  MAX_BAGGAGE_MEMBERS,
  MAX_TRACESTATE_CHARS,
  metaGetter,
  metaSetter,
} from './carriers.js';

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** `count` members `k0=v0,k1=v1,…`, each value padded to `width` characters. */
function members(count: number, width = 1): string[] {
  return Array.from({ length: count }, (_, i) => `k${i}=${String(i).padStart(width, 'v')}`);
}

describe('capBaggage', () => {
  it('keeps a baggage within the limits as it is', () => {
    const value = members(64).join(',');
    expect(capBaggage(value)).toBe(value);
    expect(capBaggage('')).toBe('');
  });

  it('keeps the first 64 members of a longer list', () => {
    expect(capBaggage(members(65).join(','))).toBe(members(64).join(','));
  });

  it('keeps only the whole leading members that fit in 8192 bytes', () => {
    const list = members(10, 1000);
    const capped = capBaggage(list.join(','));
    expect(capped).toBe(list.slice(0, 8).join(','));
    expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(MAX_BAGGAGE_BYTES);
  });

  it('keeps a value of exactly 8192 bytes and cuts one byte more', () => {
    const exact = `k=${'v'.repeat(MAX_BAGGAGE_BYTES - 2)}`;
    expect(capBaggage(exact)).toBe(exact);
    expect(capBaggage(`a=1,${exact}`)).toBe('a=1');
  });

  it('counts bytes, not characters', () => {
    // 3000 three-byte characters are 3000 characters long but 9000 bytes.
    const wide = `city=${'€'.repeat(3000)}`;
    expect(capBaggage(`a=1,${wide}`)).toBe('a=1');
    expect(capBaggage(wide)).toBe('');
  });

  it('drops a first member that alone is over the limit', () => {
    expect(capBaggage(`k=${'v'.repeat(MAX_BAGGAGE_BYTES)},b=2`)).toBe('');
  });

  it('stops at a member holding a NUL', () => {
    expect(capBaggage('a=1,b=\u0000,c=3')).toBe('a=1');
    expect(capBaggage('\u0000=1,b=2')).toBe('');
  });

  it('cuts a megabyte of baggage to its first members, never splitting it whole', () => {
    const huge = members(100_000).join(',');
    expect(huge.length).toBeGreaterThan(1_000_000);
    const capped = capBaggage(huge);
    expect(capped.length).toBeLessThanOrEqual(MAX_BAGGAGE_BYTES);
    expect(capped.split(',')).toHaveLength(MAX_BAGGAGE_MEMBERS);
    expect(capped).toBe(members(64).join(','));
  });

  it('cuts a megabyte without a single comma to nothing', () => {
    expect(capBaggage(`k=${'v'.repeat(1_000_000)}`)).toBe('');
  });
});

describe('metaGetter', () => {
  it('reads the three trace keys a _meta holds', () => {
    const meta = { traceparent: TRACEPARENT, tracestate: 'vendor=1', baggage: 'a=1', progressToken: 7 };
    expect(metaGetter.keys(meta)).toEqual(['traceparent', 'tracestate', 'baggage']);
    expect(metaGetter.get(meta, 'traceparent')).toBe(TRACEPARENT);
    expect(metaGetter.get(meta, 'tracestate')).toBe('vendor=1');
    expect(metaGetter.get(meta, 'baggage')).toBe('a=1');
    expect(metaGetter.keys(undefined)).toEqual([]);
    expect(metaGetter.get(undefined, 'traceparent')).toBeUndefined();
  });

  it.each([
    ['a number', 42],
    ['an object', { toString: () => TRACEPARENT }],
    ['an array', [TRACEPARENT]],
    ['null', null],
  ])('ignores a value that is %s', (_, value) => {
    for (const key of ['traceparent', 'tracestate', 'baggage']) {
      expect(metaGetter.get({ [key]: value }, key)).toBeUndefined();
    }
  });

  it('ignores an over-long traceparent and tracestate', () => {
    expect(
      metaGetter.get({ traceparent: `${TRACEPARENT}${'0'.repeat(300)}` }, 'traceparent'),
    ).toBeUndefined();
    const tracestate = 'v='.padEnd(MAX_TRACESTATE_CHARS + 1, 'x');
    expect(metaGetter.get({ tracestate }, 'tracestate')).toBeUndefined();
  });

  it('caps the baggage it hands on', () => {
    const baggage = members(200).join(',');
    expect(metaGetter.get({ baggage }, 'baggage')).toBe(members(64).join(','));
  });

  it('lets the W3C propagators read a _meta, and ignore a malformed one', () => {
    const traceContext = new W3CTraceContextPropagator();
    const parent = trace.getSpanContext(
      traceContext.extract(ROOT_CONTEXT, { traceparent: TRACEPARENT }, metaGetter),
    );
    expect(parent).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' });
    for (const traceparent of ['00-nonsense', 42, '', `${TRACEPARENT}-extra`]) {
      expect(
        trace.getSpanContext(traceContext.extract(ROOT_CONTEXT, { traceparent }, metaGetter)),
      ).toBeUndefined();
    }
    const baggage = new W3CBaggagePropagator().extract(
      ROOT_CONTEXT,
      { baggage: members(500).join(',') },
      metaGetter,
    );
    expect(propagation.getBaggage(baggage)?.getAllEntries()).toHaveLength(MAX_BAGGAGE_MEMBERS);
  });
});

describe('metaSetter', () => {
  it('writes what a propagator injects into _meta', () => {
    const meta: Record<string, unknown> = { progressToken: 1 };
    metaSetter.set(meta, 'traceparent', TRACEPARENT);
    expect(meta).toEqual({ progressToken: 1, traceparent: TRACEPARENT });
  });
});

describe('headerGetter', () => {
  it('reads a fetch Headers', () => {
    const headers = new Headers({ traceparent: TRACEPARENT, baggage: 'a=1' });
    expect(headerGetter.get(headers, 'traceparent')).toBe(TRACEPARENT);
    expect(headerGetter.get(headers, 'baggage')).toBe('a=1');
    expect(headerGetter.get(headers, 'tracestate')).toBeUndefined();
    expect(headerGetter.keys(headers)).toEqual(['traceparent', 'baggage']);
  });

  it("reads Node's header record, taking the first of repeated values", () => {
    const headers = { traceparent: [TRACEPARENT, 'second'], tracestate: 'vendor=1', host: 'localhost' };
    expect(headerGetter.get(headers, 'traceparent')).toBe(TRACEPARENT);
    expect(headerGetter.get(headers, 'tracestate')).toBe('vendor=1');
    expect(headerGetter.get(headers, 'baggage')).toBeUndefined();
    expect(headerGetter.keys(headers)).toEqual(['traceparent', 'tracestate']);
  });

  it('caps the baggage and ignores an over-long traceparent in headers too', () => {
    expect(headerGetter.get(new Headers({ baggage: members(100).join(',') }), 'baggage')).toBe(
      members(64).join(','),
    );
    expect(headerGetter.get({ traceparent: 'x'.repeat(1000) }, 'traceparent')).toBeUndefined();
  });

  it('reads nothing from no headers', () => {
    expect(headerGetter.keys(undefined)).toEqual([]);
    expect(headerGetter.get(undefined, 'traceparent')).toBeUndefined();
  });
});
