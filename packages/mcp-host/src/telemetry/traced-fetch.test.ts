/**
 * The weather upstream's client span, on a real SDK tracer with an in-memory exporter: host and path,
 * never the query string, and errors marked.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { tracedFetch } from './traced-fetch.js';

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
  'test',
);

afterEach(() => {
  exporter.reset();
});

describe('tracedFetch', () => {
  it('records host and path, never the query string that holds the place asked about', async () => {
    const fetchStub: typeof fetch = async () => new Response('{}', { status: 200 });
    await tracedFetch(
      tracer,
      fetchStub,
    )(new URL('https://geocoding-api.open-meteo.com/v1/search?name=Secret%20Town&count=1'));
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('GET');
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'server.address': 'geocoding-api.open-meteo.com',
      'server.port': 443,
      'url.path': '/v1/search',
      'http.response.status_code': 200,
    });
    expect(JSON.stringify(span?.attributes)).not.toContain('Secret');
  });

  it('marks an HTTP error status and a network failure as errors', async () => {
    await tracedFetch(
      tracer,
      async () => new Response('busy', { status: 503 }),
    )('http://127.0.0.1:9/v1/forecast');
    const failing = tracedFetch(tracer, async () => {
      throw new TypeError('fetch failed');
    });
    await expect(failing('http://127.0.0.1:9/v1/forecast')).rejects.toThrow('fetch failed');
    const [status, network] = exporter.getFinishedSpans();
    expect(status?.attributes['error.type']).toBe('503');
    expect(status?.status.code).toBe(2);
    expect(network?.attributes['error.type']).toBe('TypeError');
  });
});
