/**
 * @module telemetry/traced-fetch
 * `fetch` with an HTTP client span, for the weather provider's calls to Open-Meteo. The span names
 * the host and the path, never the query string: that is where the place the model asked about
 * goes. No trace header is sent upstream either; a third party has no use for our trace ids.
 */
import { serverOf } from '@mcp-workshop/telemetry/sdk';
import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';

export function tracedFetch(tracer: Tracer, inner: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const server = serverOf(url);
    return tracer.startActiveSpan(
      method,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': method,
          ...(server && { 'server.address': server.address, 'server.port': server.port }),
          'url.scheme': url.protocol.replace(':', ''),
          'url.path': url.pathname,
        },
      },
      async (span) => {
        try {
          const response = await inner(input, init);
          span.setAttribute('http.response.status_code', response.status);
          if (response.status >= 400) {
            span.setAttribute('error.type', String(response.status));
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          return response;
        } catch (error) {
          span.setAttribute('error.type', error instanceof Error ? error.name : '_OTHER');
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  };
}
