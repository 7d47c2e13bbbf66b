/**
 * @module otlp-receiver
 * A real OTLP/HTTP 1.x receiver on loopback for tests: the official exporters in a child process send
 * it spans and metrics (protobuf or JSON, gzip or not), and the test waits for them and asserts.
 * Partner file: otlp-proto.ts, which decodes the bodies.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import {
  type AttributeValue,
  decodeMetrics,
  decodeTraces,
  type Encoding,
  OtlpDecodeError,
  type ReceivedMetric,
  type ReceivedSpan,
} from './otlp-proto.js';

/** Far above any honest export (a batch is 512 spans by default); a runaway test must not eat memory. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Past the limit the rest is read and dropped, so the client sees its 413; past this it is hung up on. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;
/** A wait that no batch satisfies within this fails the test with what did arrive. */
const DEFAULT_WAIT_MS = 10_000;
/** Predicates are also re-checked on a timer, for one that depends on more than the received data. */
const WAIT_POLL_MS = 50;
/** A timeout message lists at most this many names, so a chatty service cannot flood the test output. */
const MAX_NAMES_SHOWN = 50;

type Signal = 'traces' | 'metrics' | 'logs';
/** OTLP/HTTP's default paths; a Map, so a path such as /constructor finds nothing inherited. */
const SIGNALS = new Map<string, Signal>([
  ['/v1/traces', 'traces'],
  ['/v1/metrics', 'metrics'],
  ['/v1/logs', 'logs'],
]);

const gunzipAsync = promisify(gunzip);

export interface ReceivedRequest {
  path: string;
  contentType: string;
  status: number;
  /**
   * The `service.name` of every resource the request carried spans or metrics for, so a test can
   * tell its own process's exports from a stray one (another test's process whose receiver's port
   * this one reused). Empty for logs and refused requests.
   */
  services: string[];
}

export interface WaitOptions {
  /** Defaults to 10 s. */
  timeoutMs?: number;
}

export interface StartOtlpReceiverOptions {
  /** The port to listen on (127.0.0.1 only); one the OS picks when omitted. */
  port?: number;
}

export interface OtlpReceiver {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT, e.g. http://127.0.0.1:41234 (no trailing slash). */
  endpoint: string;
  readonly spans: readonly ReceivedSpan[];
  readonly metrics: readonly ReceivedMetric[];
  /** Every POST seen: path, content type, status answered. */
  readonly requests: readonly ReceivedRequest[];
  /** Resolves with all spans once `predicate(allSpans)` is true; rejects after timeoutMs (default 10 s) with a message that lists the span names received so far. */
  waitForSpans(
    predicate: (spans: readonly ReceivedSpan[]) => boolean,
    options?: WaitOptions,
  ): Promise<readonly ReceivedSpan[]>;
  waitForMetrics(
    predicate: (metrics: readonly ReceivedMetric[]) => boolean,
    options?: WaitOptions,
  ): Promise<readonly ReceivedMetric[]>;
  /** Spans of one trace as an indented tree of lines: `name [kind] key=value …` for a chosen list of attribute keys; for printing a trace in docs/closing notes. */
  formatTrace(traceId: string, attributeKeys?: readonly string[], options?: FormatTraceOptions): string;
  /** Forgets every span, metric and request received so far. */
  clear(): void;
  /** Stops listening, drops keep-alive connections and rejects pending waits. Safe to call twice. */
  close(): Promise<void>;
}

/** What else a trace line shows, for people rather than assertions (`pnpm traces`). */
export interface FormatTraceOptions {
  /** Appends `· <service.name>`, the duration in ms, and `ERROR <message>` for a failed span. */
  details?: boolean;
}

/** An answer: status, body, and the content type to send it with. */
interface Answer {
  status: number;
  body: string | Uint8Array;
  contentType: string;
}

const text = (status: number, message: string): Answer => ({
  status,
  body: `${message}\n`,
  contentType: 'text/plain; charset=utf-8',
});

/** An empty Export…ServiceResponse: no partial_success means everything was accepted. */
const accepted = (encoding: Encoding): Answer =>
  encoding === 'json'
    ? { status: 200, body: '{}', contentType: 'application/json' }
    : { status: 200, body: new Uint8Array(0), contentType: 'application/x-protobuf' };

/** Adds a resource's `service.name` to `into`, once. */
function serviceOf(resource: Record<string, unknown>, into: string[]): void {
  const name = resource['service.name'];
  if (typeof name === 'string' && !into.includes(name)) into.push(name);
}

export async function startOtlpReceiver(options: StartOtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  // Appended to in place; clear() swaps in new arrays, and waits resolve with frozen copies.
  let spans: ReceivedSpan[] = [];
  let metrics: ReceivedMetric[] = [];
  let requests: ReceivedRequest[] = [];
  /** Each pending wait: re-check its predicate, or fail it (on close). */
  const waits = new Map<() => void, (error: Error) => void>();
  const recheckWaits = () => {
    for (const check of [...waits.keys()]) check();
  };

  /** Turns one request into an answer; every failure a client can cause becomes a 4xx here. */
  async function answerFor(req: IncomingMessage, signal: Signal, services: string[]): Promise<Answer> {
    const encoding = encodingOf(req.headers['content-type']);
    if (!encoding) return text(415, 'content-type must be application/x-protobuf or application/json');
    const raw = await readBody(req);
    if (raw === 'too-large') return text(413, `body over ${MAX_BODY_BYTES} bytes`);
    const body = await decompress(raw, req.headers['content-encoding']);
    if (!Buffer.isBuffer(body)) return body;
    if (signal === 'logs') return accepted(encoding);
    try {
      // One at a time: a spread of a huge batch into push() would overflow the call stack.
      if (signal === 'traces') {
        for (const span of decodeTraces(encoding, body)) {
          spans.push(span);
          serviceOf(span.resource, services);
        }
      } else {
        for (const metric of decodeMetrics(encoding, body)) {
          metrics.push(metric);
          serviceOf(metric.resource, services);
        }
      }
    } catch (error) {
      if (!(error instanceof OtlpDecodeError)) throw error;
      return text(400, error.message.slice(0, 300));
    }
    recheckWaits();
    return accepted(encoding);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = pathOf(req.url);
    const signal = SIGNALS.get(path);
    let answer: Answer;
    const services: string[] = [];
    if (!signal) answer = text(404, `no OTLP endpoint at ${path.slice(0, 100)}`);
    else if (req.method !== 'POST') answer = text(405, 'OTLP/HTTP takes POST only');
    else answer = await answerFor(req, signal, services);
    if (req.method === 'POST') {
      requests.push({
        path,
        contentType: req.headers['content-type'] ?? '',
        status: answer.status,
        services,
      });
    }
    res.writeHead(answer.status, {
      'content-type': answer.contentType,
      ...(answer.status === 405 ? { allow: 'POST' } : {}),
    });
    res.end(answer.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A client that hangs up mid-body is no news; anything else is a bug in this file, so say so.
      if (!(error instanceof ClientGoneError))
        console.error('otlp-receiver: failed to answer a request', error);
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  function waitFor<T>(
    what: string,
    current: () => readonly T[],
    nameOf: (item: T) => string,
    predicate: (items: readonly T[]) => boolean,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<readonly T[]> {
    return new Promise((resolve, reject) => {
      const finish = (error?: Error) => {
        clearTimeout(timer);
        clearInterval(poll);
        waits.delete(check);
        if (error) reject(error);
        else resolve(Object.freeze([...current()]));
      };
      const check = () => {
        try {
          if (predicate(current())) finish();
        } catch (error) {
          finish(error as Error);
        }
      };
      const timer = setTimeout(() => {
        finish(
          new Error(`${what}: no match within ${timeoutMs} ms; ${describeNames(current().map(nameOf))}`),
        );
      }, timeoutMs);
      const poll = setInterval(check, WAIT_POLL_MS);
      waits.set(check, finish);
      check();
    });
  }

  let closed: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get spans() {
      return spans;
    },
    get metrics() {
      return metrics;
    },
    get requests() {
      return requests;
    },
    waitForSpans: (predicate, waitOptions) =>
      waitFor(
        'waitForSpans',
        () => spans,
        (span) => span.name,
        predicate,
        waitOptions?.timeoutMs,
      ),
    waitForMetrics: (predicate, waitOptions) =>
      waitFor(
        'waitForMetrics',
        () => metrics,
        (metric) => metric.name,
        predicate,
        waitOptions?.timeoutMs,
      ),
    formatTrace: (traceId, attributeKeys = [], options = {}) =>
      formatSpanTree(spans, traceId, attributeKeys, options.details === true),
    clear() {
      spans = [];
      metrics = [];
      requests = [];
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const fail of [...waits.values()]) fail(new Error('the OTLP receiver was closed'));
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://receiver').pathname;
  } catch {
    return url ?? '/';
  }
}

/** The connection ended before the body did (or was cut for being far too large): nobody to answer. */
class ClientGoneError extends Error {}

/** The media type alone, without parameters such as `charset`. */
function encodingOf(contentType: string | undefined): Encoding | undefined {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/x-protobuf' || mediaType === 'application/protobuf') return 'protobuf';
  if (mediaType === 'application/json') return 'json';
  return undefined;
}

/** The whole body, or 'too-large' once it passes MAX_BODY_BYTES (read on and dropped, then hung up on). */
function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else chunks.length = 0;
      if (size > MAX_BODY_BYTES + MAX_DISCARD_BYTES) req.destroy();
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', (error) => reject(new ClientGoneError(error.message)));
    req.on('close', () => {
      if (!req.complete) reject(new ClientGoneError('the client hung up mid-body'));
    });
  });
}

/** The body as it was before its Content-Encoding, or the answer to give when it cannot be had. */
async function decompress(body: Buffer, contentEncoding: string | undefined): Promise<Buffer | Answer> {
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return body;
  if (coding !== 'gzip') {
    return text(415, `content-encoding ${coding.slice(0, 40)} is not supported; use gzip`);
  }
  try {
    // Bounded like the body itself: a small gzip bomb must not inflate into gigabytes.
    return await gunzipAsync(body, { maxOutputLength: MAX_BODY_BYTES });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      return text(413, `gzip body inflates past ${MAX_BODY_BYTES} bytes`);
    }
    return text(400, 'not a valid gzip body');
  }
}

function describeNames(names: readonly string[]): string {
  if (names.length === 0) return 'none received';
  const shown = names.slice(0, MAX_NAMES_SHOWN).join(', ');
  const more = names.length > MAX_NAMES_SHOWN ? `, … and ${names.length - MAX_NAMES_SHOWN} more` : '';
  return `${names.length} received: ${shown}${more}`;
}

/** One trace's spans as a tree, children under their parent in start order, two spaces per level. */
function formatSpanTree(
  all: readonly ReceivedSpan[],
  traceId: string,
  keys: readonly string[],
  details: boolean,
): string {
  const spans = all.filter((span) => span.traceId === traceId.toLowerCase());
  if (spans.length === 0) throw new Error(`formatTrace: no spans received for trace ${traceId}`);
  const ids = new Set(spans.map((span) => span.spanId));
  const byStart = [...spans].sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
  const lines: string[] = [];
  const printed = new Set<ReceivedSpan>();
  const print = (span: ReceivedSpan, depth: number) => {
    if (printed.has(span)) return;
    printed.add(span);
    const attributes = keys
      .filter((key) => key in span.attributes)
      .map((key) => ` ${key}=${formatValue(span.attributes[key] ?? null)}`)
      .join('');
    lines.push(
      `${'  '.repeat(depth)}${span.name} [${span.kind}]${details ? detailsOf(span) : ''}${attributes}`,
    );
    for (const child of byStart) if (child.parentSpanId === span.spanId) print(child, depth + 1);
  };
  for (const span of byStart) if (!span.parentSpanId || !ids.has(span.parentSpanId)) print(span, 0);
  // Spans whose parents form a cycle (only a hostile exporter sends those) still get a line.
  for (const span of byStart) print(span, 0);
  return lines.join('\n');
}

/** ` · mcp-workshop-server 12 ms ERROR "message"`: where the span ran, how long, and how it failed. */
function detailsOf(span: ReceivedSpan): string {
  const service = span.resource['service.name'];
  const ms = Number(span.endTimeUnixNano - span.startTimeUnixNano) / 1e6;
  const failed = span.status.code === 'ERROR' ? ` ERROR ${formatValue(span.status.message ?? '')}` : '';
  return ` · ${typeof service === 'string' ? service : '?'} ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms${failed}`;
}

/** Bare when unambiguous; quoted JSON for a string with spaces, quotes or `=`, and for lists and maps. */
function formatValue(value: AttributeValue): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'object' && value !== null) {
    return JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
  }
  return String(value);
}
