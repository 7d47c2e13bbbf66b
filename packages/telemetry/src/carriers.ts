/**
 * @module carriers
 * Where trace context travels: the request's `params._meta` (SEP-414: the unprefixed keys
 * `traceparent`, `tracestate` and `baggage`), and, for callers that only speak HTTP, the request's
 * headers. The W3C propagators do the parsing, and they drop a malformed `traceparent` rather
 * than fail; what reaches them here is only ever a string, and a `baggage` cut to the W3C limits.
 */
import type { TextMapGetter, TextMapSetter } from '@opentelemetry/api';

/** The keys SEP-414 reserves in `_meta`, the same names as the W3C headers. */
export const TRACE_META_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/** W3C Baggage's limits: at most 64 list members and 8192 bytes in all. Longer values are cut, never refused. */
export const MAX_BAGGAGE_MEMBERS = 64;
export const MAX_BAGGAGE_BYTES = 8192;
/** W3C Trace Context: a `tracestate` has at most 32 members, 512 characters being the practical cap. */
export const MAX_TRACESTATE_CHARS = 512;

/**
 * Keeps the leading whole members of a `baggage` value that fit the W3C limits, so a client that
 * sends a megabyte of baggage costs the server one string slice and nothing more.
 */
export function capBaggage(value: string): string {
  // `length` counts UTF-16 units, not bytes: a short string of wide characters can still be too long.
  if (
    value.length <= MAX_BAGGAGE_BYTES &&
    Buffer.byteLength(value) <= MAX_BAGGAGE_BYTES &&
    !value.includes('\u0000')
  ) {
    const members = value.split(',');
    if (members.length <= MAX_BAGGAGE_MEMBERS) return value;
  }
  const kept: string[] = [];
  let bytes = 0;
  // Only the first 64 members are looked at: a huge value is never split in full.
  for (const member of value.slice(0, MAX_BAGGAGE_BYTES + 1).split(',', MAX_BAGGAGE_MEMBERS)) {
    const size = Buffer.byteLength(member) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > MAX_BAGGAGE_BYTES || member.includes('\u0000')) break;
    kept.push(member);
    bytes += size;
  }
  return kept.join(',');
}

/** A carrier value fit for a propagator: a string, with baggage and tracestate capped. */
function capped(key: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (key === 'baggage') return capBaggage(value);
  if (key === 'tracestate') return value.length > MAX_TRACESTATE_CHARS ? undefined : value;
  // A traceparent is 55 characters; anything far longer is not one, and is not looked at.
  return value.length > 256 ? undefined : value;
}

/** Reads the trace keys of a `_meta` object; anything but a string is ignored. */
export const metaGetter: TextMapGetter<Record<string, unknown> | undefined> = {
  keys: (carrier) => (carrier ? TRACE_META_KEYS.filter((key) => key in carrier) : []),
  get: (carrier, key) => capped(key, carrier?.[key]),
};

/** Writes the trace keys into a `_meta` object. */
export const metaSetter: TextMapSetter<Record<string, unknown>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/** Something that holds request headers: a fetch `Headers`, or Node's header record. */
export type HeaderSource =
  | { get(name: string): string | null }
  | Record<string, string | string[] | undefined>;

/** One header's value, from either kind of header source; a repeated header counts as its first value. */
export function header(source: HeaderSource, name: string): string | undefined {
  if (typeof (source as { get?: unknown }).get === 'function') {
    return (source as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const value = (source as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads the W3C headers (`traceparent`, `tracestate`, `baggage`) of an HTTP request. */
export const headerGetter: TextMapGetter<HeaderSource | undefined> = {
  keys: (carrier) => (carrier ? TRACE_META_KEYS.filter((key) => header(carrier, key) !== undefined) : []),
  get: (carrier, key) => (carrier ? capped(key, header(carrier, key)) : undefined),
};
