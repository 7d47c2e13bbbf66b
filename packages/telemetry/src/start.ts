/**
 * @module sdk
 * Starts the OpenTelemetry SDK for one service, from settings its env.ts validated: a tracer
 * provider with a batch span processor and an OTLP/HTTP exporter (protobuf or JSON, as
 * `OTEL_EXPORTER_OTLP_PROTOCOL` says), a meter provider exporting on an interval, the W3C trace
 * context and baggage propagators, and AsyncLocalStorage for the active span. Every piece is the
 * SDK's own; nothing here exports, propagates or batches by hand.
 *
 * The SDK still reads a few standard variables itself, as the specification asks:
 * `OTEL_TRACES_SAMPLER(_ARG)`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_SERVICE_NAME` and
 * `OTEL_EXPORTER_OTLP_HEADERS`, which env.ts has checked first, and the `OTEL_BSP_*` batch settings
 * and `OTEL_EXPORTER_OTLP_TIMEOUT`, which it leaves to the SDK (a bad value there falls back to the default).
 *
 * Import this module only when `telemetryEnabled()` says so: loading it is the whole cost.
 */
import os from 'node:os';
import { type Meter, metrics, type Tracer } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { TelemetryEnv } from './env.js';

export interface TelemetryOptions {
  env: TelemetryEnv;
  /** `service.name` unless OTEL_SERVICE_NAME says otherwise. */
  serviceName: string;
  serviceVersion: string;
}

export interface Telemetry {
  tracer: Tracer;
  meter: Meter;
  /** `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`: tool arguments and results on spans, capped. */
  recordContent: boolean;
  /** The resource's `service.instance.id`: which replica this is. */
  instanceId: string;
  /** Sends what is buffered now (a CLI does this before it exits). */
  flush(): Promise<void>;
  /** Flushes, then stops exporting. */
  shutdown(): Promise<void>;
}

/** The longest attribute value a span keeps. */
export const MAX_ATTRIBUTE_CHARS = 8192;
/** How long `shutdown()` waits for the last exports. */
export const SHUTDOWN_TIMEOUT_MS = 3_000;

/** `base` + `/v1/traces`, as the specification builds signal URLs from OTEL_EXPORTER_OTLP_ENDPOINT. */
function signalUrl(base: string | undefined, specific: string | undefined, path: string): string | undefined {
  if (specific) return specific;
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/${path}`;
}

export function startTelemetry({ env, serviceName, serviceVersion }: TelemetryOptions): Telemetry {
  const json = env.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json';
  const tracesUrl = signalUrl(
    env.OTEL_EXPORTER_OTLP_ENDPOINT,
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    'v1/traces',
  );
  const metricsUrl = signalUrl(
    env.OTEL_EXPORTER_OTLP_ENDPOINT,
    env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT,
    'v1/metrics',
  );

  // Defaults first, then what the environment says (OTEL_RESOURCE_ATTRIBUTES, OTEL_SERVICE_NAME) wins.
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        'service.name': serviceName,
        'service.version': serviceVersion,
        // A replica behind a load balancer is told apart by this; compose sets one name per replica.
        'service.instance.id': `${os.hostname()}/${process.pid}`,
      }),
    )
    .merge(detectResources({ detectors: [envDetector] }));

  const spanExporter = json
    ? new JsonTraceExporter({ url: tracesUrl })
    : new ProtoTraceExporter({ url: tracesUrl });
  const tracerProvider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(spanExporter)],
    // No attribute value longer than this, whoever set it: the opt-in content (4,096 and a marker)
    // fits, a hostile megabyte does not.
    spanLimits: { attributeValueLengthLimit: MAX_ATTRIBUTE_CHARS },
  });
  tracerProvider.register({
    propagator: new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
  });

  const meterProvider = metricsUrl
    ? new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: json
              ? new JsonMetricExporter({ url: metricsUrl })
              : new ProtoMetricExporter({ url: metricsUrl }),
            exportIntervalMillis: env.OTEL_METRIC_EXPORT_INTERVAL,
            exportTimeoutMillis: Math.min(30_000, env.OTEL_METRIC_EXPORT_INTERVAL),
          }),
        ],
      })
    : undefined;
  if (meterProvider) metrics.setGlobalMeterProvider(meterProvider);

  // The instrumentation scope is this package, which makes every span and instrument here.
  const scope = '@mcp-workshop/telemetry';
  let stopped: Promise<void> | undefined;
  return {
    // From these providers, not the globals: if something registered a global first, registering
    // ours fails with only a diag message, and the global tracer would hand every span to the other.
    tracer: tracerProvider.getTracer(scope, serviceVersion),
    meter: meterProvider?.getMeter(scope, serviceVersion) ?? metrics.getMeter(scope, serviceVersion),
    recordContent: env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT,
    instanceId: String(resource.attributes['service.instance.id']),
    async flush() {
      await Promise.all([tracerProvider.forceFlush(), meterProvider?.forceFlush()]);
    },
    shutdown() {
      // Bounded: with the receiver down the exporter retries for up to 10 s, and a CLI or a container
      // told to stop must not hang on it. What is not sent by then is lost.
      stopped ??= Promise.race([
        Promise.all([tracerProvider.shutdown(), meterProvider?.shutdown()]).then(
          () => undefined,
          // An export that failed on the way out is lost, as one that is still running is.
          () => undefined,
        ),
        new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS).unref()),
      ]);
      return stopped;
    },
  };
}
