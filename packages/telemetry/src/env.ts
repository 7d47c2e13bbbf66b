/**
 * @module env
 * The OpenTelemetry settings both services accept: the standard `OTEL_*` variables, checked the
 * same way as every other setting (each service spreads `TELEMETRY_ENV` into its own env.ts).
 * Telemetry is off unless an OTLP endpoint is set; `OTEL_SDK_DISABLED=true` turns it off anyway.
 * This module imports nothing from OpenTelemetry, so a service that leaves telemetry off never
 * loads the SDK.
 */
import { z } from 'zod';

/** The OTLP encodings this kit ships exporters for. gRPC would pull in a second network stack. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** The sampler names of the OpenTelemetry specification that the JavaScript SDK understands. */
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const Protocol = z.enum(OTLP_PROTOCOLS, {
  error: (issue) =>
    issue.input === 'grpc'
      ? 'grpc is not supported here: use http/protobuf (port 4318) or http/json'
      : 'must be http/protobuf or http/json',
});

const Endpoint = z.url({
  protocol: /^https?$/,
  error: 'must be an http:// or https:// URL, e.g. http://127.0.0.1:4318',
});

/** The SDK's limit on a resource attribute's key and value, after percent-decoding. */
const MAX_RESOURCE_ATTRIBUTE_CHARS = 255;

function decodes(text: string): string | undefined {
  try {
    return decodeURIComponent(text.trim());
  } catch {
    return undefined;
  }
}

/**
 * One `key=value` pair as the SDK's env detector reads it. The detector drops the whole variable,
 * silently, over one bad pair (a second unencoded `=`, a broken `%` escape, a value over 255
 * characters), so every replica would report the same `service.instance.id`: refuse it here.
 */
function resourcePairOk(pair: string): boolean {
  if (!/^\s*[^=\s,]+\s*=[^=,]*$/.test(pair)) return false;
  const [key = '', value = ''] = pair.split('=');
  return [decodes(key), decodes(value)].every(
    (decoded) => decoded !== undefined && decoded.length <= MAX_RESOURCE_ATTRIBUTE_CHARS,
  );
}

/** `key=value` pairs separated by commas, as the specification writes resource attributes. */
const ResourceAttributes = z
  .string()
  .max(4096, 'is longer than 4096 characters')
  .refine(
    (value) => value.split(',').every(resourcePairOk),
    'must be comma-separated key=value pairs (percent-encode "," "=" and "%" inside a value; at most 255 characters each), e.g. service.instance.id=mcp-server-1,deployment.environment.name=dev',
  );

/** Spread into a service's env schema. Names and meanings are the OpenTelemetry specification's. */
export const TELEMETRY_ENV = {
  OTEL_SDK_DISABLED: z
    .stringbool()
    .default(false)
    .describe('true turns telemetry off even with an endpoint set.'),
  OTEL_EXPORTER_OTLP_ENDPOINT: Endpoint.optional().describe(
    'Base URL of an OTLP/HTTP receiver (e.g. http://127.0.0.1:4318); setting it turns tracing and metrics on.',
  ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Endpoint.optional().describe(
    'Full URL for spans only, e.g. …/v1/traces.',
  ),
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: Endpoint.optional().describe(
    'Full URL for metrics only, e.g. …/v1/metrics.',
  ),
  OTEL_EXPORTER_OTLP_PROTOCOL: Protocol.default('http/protobuf'),
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .optional()
    .describe('Headers for the receiver, e.g. an API key; never logged.'),
  OTEL_SERVICE_NAME: z.string().max(256).optional(),
  OTEL_RESOURCE_ATTRIBUTES: ResourceAttributes.optional(),
  OTEL_TRACES_SAMPLER: z.enum(SAMPLERS).optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  OTEL_METRIC_EXPORT_INTERVAL: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: z
    .stringbool()
    .default(false)
    .describe(
      'Local debugging only: records tool arguments and results on spans, each cut to 4 KB. Off: never recorded.',
    ),
};

const TelemetryEnvSchema = z.object(TELEMETRY_ENV);
export type TelemetryEnv = z.output<typeof TelemetryEnvSchema>;

/** Whether telemetry should start: an endpoint for spans is set, and the SDK is not disabled. */
export function telemetryEnabled(env: TelemetryEnv): boolean {
  if (env.OTEL_SDK_DISABLED) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}
