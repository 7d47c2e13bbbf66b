/**
 * @module otlp-proto
 * OTLP/HTTP 1.x request bodies, binary protobuf or OTLP/JSON, turned into the spans and metrics that
 * tests assert on. Partner file: otlp-receiver.ts, which serves HTTP and keeps what this decodes.
 */
import protobuf from 'protobufjs';

/** An attribute as tests compare it; an int64 that does not fit a double stays a bigint. */
export type AttributeValue =
  | string
  | number
  | boolean
  | bigint
  | AttributeValue[]
  | { [key: string]: AttributeValue }
  | null;
type Attributes = Record<string, AttributeValue>;

export type Encoding = 'protobuf' | 'json';
export type SpanKindName = 'UNSPECIFIED' | 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
export type StatusCodeName = 'UNSET' | 'OK' | 'ERROR';

export interface ReceivedSpan {
  /** Lower-case hex, 32 characters; so are the span ids (16). */
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: SpanKindName;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Attributes;
  resource: Attributes;
  scope: { name: string; version?: string };
  status: { code: StatusCodeName; message?: string };
  events: { name: string; attributes: Attributes }[];
  links: { traceId: string; spanId: string; attributes: Attributes }[];
  encoding: Encoding;
}

export interface ReceivedMetricPoint {
  attributes: Attributes;
  /** Gauge and sum points: `asDouble`, or `asInt` as a number. */
  value?: number;
  /** Histogram points. */
  count?: number;
  sum?: number;
  bucketCounts?: number[];
  explicitBounds?: number[];
}

export interface ReceivedMetric {
  name: string;
  unit: string;
  description: string;
  kind: 'gauge' | 'sum' | 'histogram';
  resource: Attributes;
  scope: { name: string; version?: string };
  points: ReceivedMetricPoint[];
  encoding: Encoding;
}

/** A body that is not valid OTLP; the receiver answers it with 400 and this message. */
export class OtlpDecodeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * Only the messages a test receiver reads, written from the field numbers of opentelemetry-proto
 * (common, resource, trace, metrics and the collector services). Names never travel on the wire, so
 * one package stands in for the six; fields left out (exemplars, summaries, exponential histograms,
 * string tables) are skipped by the decoder as unknown fields, as protobuf requires.
 */
const OTLP_SCHEMA = `
syntax = "proto3";
package otlp;

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue {
  string key = 1;
  AnyValue value = 2;
}
message InstrumentationScope {
  string name = 1;
  string version = 2;
  repeated KeyValue attributes = 3;
  uint32 dropped_attributes_count = 4;
}
message Resource {
  repeated KeyValue attributes = 1;
  uint32 dropped_attributes_count = 2;
}

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans {
  Resource resource = 1;
  repeated ScopeSpans scope_spans = 2;
  string schema_url = 3;
}
message ScopeSpans {
  InstrumentationScope scope = 1;
  repeated Span spans = 2;
  string schema_url = 3;
}
message Span {
  enum SpanKind {
    SPAN_KIND_UNSPECIFIED = 0;
    SPAN_KIND_INTERNAL = 1;
    SPAN_KIND_SERVER = 2;
    SPAN_KIND_CLIENT = 3;
    SPAN_KIND_PRODUCER = 4;
    SPAN_KIND_CONSUMER = 5;
  }
  message Event {
    fixed64 time_unix_nano = 1;
    string name = 2;
    repeated KeyValue attributes = 3;
    uint32 dropped_attributes_count = 4;
  }
  message Link {
    bytes trace_id = 1;
    bytes span_id = 2;
    string trace_state = 3;
    repeated KeyValue attributes = 4;
    uint32 dropped_attributes_count = 5;
    fixed32 flags = 6;
  }
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  string name = 5;
  SpanKind kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
  fixed32 flags = 16;
}
message Status {
  enum StatusCode {
    STATUS_CODE_UNSET = 0;
    STATUS_CODE_OK = 1;
    STATUS_CODE_ERROR = 2;
  }
  string message = 2;
  StatusCode code = 3;
}

message ExportMetricsServiceRequest { repeated ResourceMetrics resource_metrics = 1; }
message ResourceMetrics {
  Resource resource = 1;
  repeated ScopeMetrics scope_metrics = 2;
  string schema_url = 3;
}
message ScopeMetrics {
  InstrumentationScope scope = 1;
  repeated Metric metrics = 2;
  string schema_url = 3;
}
message Metric {
  string name = 1;
  string description = 2;
  string unit = 3;
  oneof data {
    Gauge gauge = 5;
    Sum sum = 7;
    Histogram histogram = 9;
  }
}
enum AggregationTemporality {
  AGGREGATION_TEMPORALITY_UNSPECIFIED = 0;
  AGGREGATION_TEMPORALITY_DELTA = 1;
  AGGREGATION_TEMPORALITY_CUMULATIVE = 2;
}
message Gauge { repeated NumberDataPoint data_points = 1; }
message Sum {
  repeated NumberDataPoint data_points = 1;
  AggregationTemporality aggregation_temporality = 2;
  bool is_monotonic = 3;
}
message Histogram {
  repeated HistogramDataPoint data_points = 1;
  AggregationTemporality aggregation_temporality = 2;
}
message NumberDataPoint {
  fixed64 start_time_unix_nano = 2;
  fixed64 time_unix_nano = 3;
  oneof value {
    double as_double = 4;
    sfixed64 as_int = 6;
  }
  repeated KeyValue attributes = 7;
  uint32 flags = 8;
}
message HistogramDataPoint {
  fixed64 start_time_unix_nano = 2;
  fixed64 time_unix_nano = 3;
  fixed64 count = 4;
  optional double sum = 5;
  repeated fixed64 bucket_counts = 6;
  repeated double explicit_bounds = 7;
  repeated KeyValue attributes = 9;
  uint32 flags = 10;
  optional double min = 11;
  optional double max = 12;
}
`;

/** Attribute values nest (arrays, key-value lists); a hostile body must not recurse without end. */
const MAX_VALUE_DEPTH = 32;

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const SPAN_KINDS: readonly SpanKindName[] = [
  'UNSPECIFIED',
  'INTERNAL',
  'SERVER',
  'CLIENT',
  'PRODUCER',
  'CONSUMER',
];
const STATUS_CODES: readonly StatusCodeName[] = ['UNSET', 'OK', 'ERROR'];

/** Parsed once, on first use. protobufjs camel-cases field names, so its objects have OTLP/JSON's keys. */
let schema: { traces: protobuf.Type; metrics: protobuf.Type } | undefined;
function requestTypes(): { traces: protobuf.Type; metrics: protobuf.Type } {
  if (!schema) {
    const { root } = protobuf.parse(OTLP_SCHEMA);
    schema = {
      traces: root.lookupType('otlp.ExportTraceServiceRequest'),
      metrics: root.lookupType('otlp.ExportMetricsServiceRequest'),
    };
  }
  return schema;
}

/**
 * A body as a plain object in OTLP/JSON's shape: protobuf is decoded and converted with 64-bit integers
 * as decimal strings and bytes as base64 (ids become hex later); JSON is parsed.
 */
function toPlainRequest(signal: 'traces' | 'metrics', encoding: Encoding, body: Uint8Array): Json {
  if (encoding === 'json') return parseJson(body);
  // Outside the try: a schema that does not parse is this file's bug, not the client's bad body.
  const type = requestTypes()[signal];
  try {
    return type.toObject(type.decode(body), { longs: String, bytes: String });
  } catch (error) {
    throw new OtlpDecodeError(`not an OTLP protobuf body: ${(error as Error).message}`, { cause: error });
  }
}

function parseJson(body: Uint8Array): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch (error) {
    throw new OtlpDecodeError(`not an OTLP json body: ${(error as Error).message}`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new OtlpDecodeError('not an OTLP json body: not a JSON object');
  }
  return parsed as Json;
}

/** The spans in an ExportTraceServiceRequest body; throws OtlpDecodeError for one that is not valid. */
export function decodeTraces(encoding: Encoding, body: Uint8Array): ReceivedSpan[] {
  const request = toPlainRequest('traces', encoding, body);
  const id = encoding === 'json' ? hexId : base64Id;
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of objects(request, 'resourceSpans')) {
    const resource = attributes(object(resourceSpans, 'resource'));
    for (const scopeSpans of objects(resourceSpans, 'scopeSpans')) {
      const scope = scopeOf(object(scopeSpans, 'scope'));
      for (const span of objects(scopeSpans, 'spans')) {
        const status = object(span, 'status');
        const statusMessage = string(status, 'message');
        const parentSpanId = id(span, 'parentSpanId');
        spans.push({
          traceId: id(span, 'traceId'),
          spanId: id(span, 'spanId'),
          ...(parentSpanId ? { parentSpanId } : {}),
          name: string(span, 'name'),
          kind: SPAN_KINDS[integer(span, 'kind')] ?? 'UNSPECIFIED',
          startTimeUnixNano: int64(span, 'startTimeUnixNano'),
          endTimeUnixNano: int64(span, 'endTimeUnixNano'),
          attributes: attributes(span),
          resource,
          scope,
          status: {
            code: STATUS_CODES[integer(status, 'code')] ?? 'UNSET',
            ...(statusMessage ? { message: statusMessage } : {}),
          },
          events: objects(span, 'events').map((event) => ({
            name: string(event, 'name'),
            attributes: attributes(event),
          })),
          links: objects(span, 'links').map((link) => ({
            traceId: id(link, 'traceId'),
            spanId: id(link, 'spanId'),
            attributes: attributes(link),
          })),
          encoding,
        });
      }
    }
  }
  return spans;
}

/** The gauges, sums and histograms in an ExportMetricsServiceRequest body; other kinds are skipped. */
export function decodeMetrics(encoding: Encoding, body: Uint8Array): ReceivedMetric[] {
  const request = toPlainRequest('metrics', encoding, body);
  const metrics: ReceivedMetric[] = [];
  for (const resourceMetrics of objects(request, 'resourceMetrics')) {
    const resource = attributes(object(resourceMetrics, 'resource'));
    for (const scopeMetrics of objects(resourceMetrics, 'scopeMetrics')) {
      const scope = scopeOf(object(scopeMetrics, 'scope'));
      for (const metric of objects(scopeMetrics, 'metrics')) {
        const data = metricData(metric);
        if (!data) continue;
        metrics.push({
          name: string(metric, 'name'),
          unit: string(metric, 'unit'),
          description: string(metric, 'description'),
          kind: data.kind,
          resource,
          scope,
          points: data.points,
          encoding,
        });
      }
    }
  }
  return metrics;
}

function metricData(metric: Json): Pick<ReceivedMetric, 'kind' | 'points'> | undefined {
  for (const kind of ['gauge', 'sum'] as const) {
    if (metric[kind] === undefined) continue;
    const points = objects(object(metric, kind), 'dataPoints').map((point) => {
      const value =
        point.asDouble !== undefined
          ? double(point, 'asDouble')
          : point.asInt !== undefined
            ? Number(int64(point, 'asInt'))
            : undefined;
      return { attributes: attributes(point), ...(value === undefined ? {} : { value }) };
    });
    return { kind, points };
  }
  if (metric.histogram === undefined) return undefined;
  const points = objects(object(metric, 'histogram'), 'dataPoints').map((point) => ({
    attributes: attributes(point),
    count: Number(int64(point, 'count')),
    ...(point.sum === undefined ? {} : { sum: double(point, 'sum') }),
    bucketCounts: list(point, 'bucketCounts').map((count) => Number(toInt64(count, 'bucketCounts'))),
    explicitBounds: list(point, 'explicitBounds').map((bound) => toDouble(bound, 'explicitBounds')),
  }));
  return { kind: 'histogram', points };
}

// Readers for one field of a decoded message. A missing field is its proto3 default; a field of the
// wrong type (only possible in JSON, or from a hostile body) is an OtlpDecodeError, answered with 400.
type Json = Record<string, unknown>;

function wrongType(key: string, expected: string, value: unknown): OtlpDecodeError {
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
  return new OtlpDecodeError(`${key}: expected ${expected}, got ${shown}`);
}

function object(message: Json, key: string): Json {
  return asObject(message[key], key);
}

function asObject(value: unknown, key: string): Json {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw wrongType(key, 'an object', value);
  return value as Json;
}

function list(message: Json, key: string): unknown[] {
  const value = message[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw wrongType(key, 'a list', value);
  return value;
}

function objects(message: Json, key: string): Json[] {
  return list(message, key).map((item) => asObject(item, key));
}

function string(message: Json, key: string): string {
  const value = message[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw wrongType(key, 'a string', value);
  return value;
}

/** Enums: OTLP/JSON sends them as integers, and protobufjs converts them to integers too. */
function integer(message: Json, key: string): number {
  const value = message[key];
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType(key, 'an integer', value);
  return value;
}

function int64(message: Json, key: string): bigint {
  return toInt64(message[key], key);
}

/** 64-bit integers come as decimal strings (protobufjs here; OTLP/JSON usually) or as JSON numbers. */
function toInt64(value: unknown, key: string): bigint {
  if (value === undefined || value === null) return 0n;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) return BigInt(value);
  throw wrongType(key, 'a 64-bit integer', value);
}

function double(message: Json, key: string): number {
  return toDouble(message[key], key);
}

/** The proto3 JSON mapping writes non-finite doubles as the strings "NaN", "Infinity" and "-Infinity". */
function toDouble(value: unknown, key: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (value === 'NaN') return Number.NaN;
  throw wrongType(key, 'a number', value);
}

/** OTLP/JSON writes trace and span ids as hex, unlike the proto3 JSON mapping's base64. */
function hexId(message: Json, key: string): string {
  const value = string(message, key);
  if (!/^[0-9a-f]*$/i.test(value)) throw wrongType(key, 'a hex id', value);
  return value.toLowerCase();
}

function base64Id(message: Json, key: string): string {
  return Buffer.from(string(message, key), 'base64').toString('hex');
}

function scopeOf(scope: Json): { name: string; version?: string } {
  const version = string(scope, 'version');
  return { name: string(scope, 'name'), ...(version ? { version } : {}) };
}

/** A message's `attributes` (a list of KeyValue) as a record; fromEntries keeps `__proto__` a plain key. */
function attributes(message: Json, key = 'attributes', depth = 0): Attributes {
  return Object.fromEntries(
    objects(message, key).map((pair) => [string(pair, 'key'), anyValue(object(pair, 'value'), depth)]),
  );
}

function anyValue(value: Json, depth: number): AttributeValue {
  if (depth > MAX_VALUE_DEPTH) throw new OtlpDecodeError(`an attribute nests deeper than ${MAX_VALUE_DEPTH}`);
  if (value.stringValue !== undefined) return string(value, 'stringValue');
  if (value.boolValue !== undefined) {
    if (typeof value.boolValue !== 'boolean') throw wrongType('boolValue', 'a boolean', value.boolValue);
    return value.boolValue;
  }
  if (value.intValue !== undefined) {
    const int = int64(value, 'intValue');
    return int >= MIN_SAFE && int <= MAX_SAFE ? Number(int) : int;
  }
  if (value.doubleValue !== undefined) return double(value, 'doubleValue');
  if (value.arrayValue !== undefined) {
    return objects(object(value, 'arrayValue'), 'values').map((item) => anyValue(item, depth + 1));
  }
  if (value.kvlistValue !== undefined) return attributes(object(value, 'kvlistValue'), 'values', depth + 1);
  // Both encodings carry other bytes as base64 (protobufjs is asked for that), so tests see one form.
  if (value.bytesValue !== undefined) return string(value, 'bytesValue');
  return null;
}
