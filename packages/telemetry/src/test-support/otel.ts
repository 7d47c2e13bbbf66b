/**
 * @module test-support/otel
 * The real OpenTelemetry SDK for unit tests: a tracer provider exporting to memory, registered as
 * the global one with AsyncLocalStorage and the W3C propagators (what `startTelemetry` sets up),
 * and a meter provider read on demand. `uninstall()` unregisters every global, so no test file
 * leaks its provider into the next.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, type MetricData, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import type { McpTelemetry } from '../mcp-client.js';

/** A reader that exports nothing by itself: a test collects when it wants to look. */
class ManualReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface TestOtel {
  telemetry: McpTelemetry;
  /** Spans ended so far. */
  spans(): ReadableSpan[];
  /** The one ended span with this name; fails the test when there are none or several. */
  span(name: string): ReadableSpan;
  /** Every data point of the metric named `name`, as collected now. */
  metric(name: string): Promise<MetricData | undefined>;
  /** Forgets the spans ended so far (metrics are cumulative: compare counts instead). */
  reset(): void;
  uninstall(): Promise<void>;
}

export function installTestOtel(options: { recordContent?: boolean } = {}): TestOtel {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  tracerProvider.register({
    propagator: new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
  });
  const reader = new ManualReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);

  return {
    telemetry: {
      tracer: tracerProvider.getTracer('test'),
      meter: meterProvider.getMeter('test'),
      recordContent: options.recordContent ?? false,
    },
    spans: () => exporter.getFinishedSpans(),
    span(name) {
      const found = exporter.getFinishedSpans().filter((span) => span.name === name);
      if (found.length !== 1) throw new Error(`expected one span named "${name}", found ${found.length}`);
      return found[0] as ReadableSpan;
    },
    async metric(name) {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .find((metric) => metric.descriptor.name === name);
    },
    reset: () => exporter.reset(),
    async uninstall() {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
      trace.disable();
      context.disable();
      propagation.disable();
      metrics.disable();
    },
  };
}
