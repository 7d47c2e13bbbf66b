import { EnvError, parseEnv } from '@mcp-workshop/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TELEMETRY_ENV, telemetryEnabled } from './env.js';

const Schema = z.object(TELEMETRY_ENV);
const parse = (source: Record<string, string | undefined>) => parseEnv(Schema, source);

/** The message parseEnv throws for `source`, or a failure when it parses. */
function refusal(source: Record<string, string>): string {
  try {
    parse(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(source)} to be refused`);
}

describe('TELEMETRY_ENV', () => {
  it('defaults to protobuf, a one-minute metric interval and no content capture', () => {
    expect(parse({})).toEqual({
      OTEL_SDK_DISABLED: false,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_METRIC_EXPORT_INTERVAL: 60_000,
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: false,
    });
  });

  it('treats empty strings as unset', () => {
    const env = parse({
      OTEL_SDK_DISABLED: '',
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      OTEL_EXPORTER_OTLP_PROTOCOL: ' ',
      OTEL_TRACES_SAMPLER: '',
      OTEL_TRACES_SAMPLER_ARG: '',
      OTEL_RESOURCE_ATTRIBUTES: '',
    });
    expect(env).toEqual(parse({}));
    expect(telemetryEnabled(env)).toBe(false);
  });

  it('refuses grpc and says to use http/protobuf', () => {
    const message = refusal({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(message).toMatch(/OTEL_EXPORTER_OTLP_PROTOCOL="grpc"/);
    expect(message).toMatch(/http\/protobuf/);
  });

  it('refuses an unknown protocol and accepts both HTTP encodings', () => {
    expect(refusal({ OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift' })).toMatch(
      /must be http\/protobuf or http\/json/,
    );
    expect(parse({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).OTEL_EXPORTER_OTLP_PROTOCOL).toBe('http/json');
  });

  it.each(['javascript:alert(1)', 'ftp://collector.example:21', 'file:///etc/passwd', 'collector:4318'])(
    'refuses the endpoint %s',
    (endpoint) => {
      expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toMatch(
        /must be an http:\/\/ or https:\/\/ URL/,
      );
      expect(() => parse({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint })).toThrow(EnvError);
      expect(() => parse({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: endpoint })).toThrow(EnvError);
    },
  );

  it('accepts http and https endpoints', () => {
    expect(parse({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe(
      'http://127.0.0.1:4318',
    );
    expect(
      parse({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/v1/traces' })
        .OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    ).toBe('https://collector.example/v1/traces');
  });

  it('accepts resource attributes written as the specification says', () => {
    const value = 'service.instance.id=mcp-server-1, deployment.environment.name = dev,team=a%2Cb%3Dc';
    expect(parse({ OTEL_RESOURCE_ATTRIBUTES: value }).OTEL_RESOURCE_ATTRIBUTES).toBe(value);
  });

  it.each([
    ['a key without a value', 'service.instance.id'],
    ['a value without a key', '=mcp-server-1'],
    ['an empty pair', 'a=1,,b=2'],
    ['a trailing comma', 'a=1,'],
    ['a key with a space inside', 'service instance=1'],
    // The SDK's detector discards the whole variable over any of these, without a word.
    ['an unencoded = inside a value', 'service.instance.id=a=b'],
    ['a broken percent escape', 'service.instance.id=50%'],
    ['a value over 255 characters', `service.instance.id=${'x'.repeat(256)}`],
  ])('refuses resource attributes with %s', (_, value) => {
    expect(refusal({ OTEL_RESOURCE_ATTRIBUTES: value })).toMatch(
      /OTEL_RESOURCE_ATTRIBUTES=.*key=value pairs/,
    );
  });

  it('refuses resource attributes longer than 4096 characters', () => {
    const value = Array.from({ length: 300 }, (_, i) => `key${i}=value${i}`).join(',');
    expect(refusal({ OTEL_RESOURCE_ATTRIBUTES: value })).toMatch(/longer than 4096/);
  });

  it('accepts the sampler names the JavaScript SDK knows and refuses others', () => {
    expect(parse({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' }).OTEL_TRACES_SAMPLER).toBe(
      'parentbased_traceidratio',
    );
    expect(parse({ OTEL_TRACES_SAMPLER: 'always_off' }).OTEL_TRACES_SAMPLER).toBe('always_off');
    expect(() => parse({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER="sometimes"/);
    expect(() => parse({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(EnvError);
  });

  it('keeps the sampler argument between 0 and 1', () => {
    expect(parse({ OTEL_TRACES_SAMPLER_ARG: '0.25' }).OTEL_TRACES_SAMPLER_ARG).toBe(0.25);
    expect(parse({ OTEL_TRACES_SAMPLER_ARG: '0' }).OTEL_TRACES_SAMPLER_ARG).toBe(0);
    expect(parse({ OTEL_TRACES_SAMPLER_ARG: '1' }).OTEL_TRACES_SAMPLER_ARG).toBe(1);
    for (const arg of ['1.5', '-0.1', 'half']) {
      expect(() => parse({ OTEL_TRACES_SAMPLER_ARG: arg })).toThrow(/OTEL_TRACES_SAMPLER_ARG=/);
    }
  });

  it('bounds the metric export interval', () => {
    expect(parse({ OTEL_METRIC_EXPORT_INTERVAL: '5000' }).OTEL_METRIC_EXPORT_INTERVAL).toBe(5000);
    expect(() => parse({ OTEL_METRIC_EXPORT_INTERVAL: '10' })).toThrow(EnvError);
    expect(() => parse({ OTEL_METRIC_EXPORT_INTERVAL: '1.5' })).toThrow(EnvError);
  });

  it('reads the booleans the way the specification writes them', () => {
    expect(parse({ OTEL_SDK_DISABLED: 'true' }).OTEL_SDK_DISABLED).toBe(true);
    expect(parse({ OTEL_SDK_DISABLED: 'false' }).OTEL_SDK_DISABLED).toBe(false);
    expect(
      parse({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' })
        .OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT,
    ).toBe(true);
    expect(() => parse({ OTEL_SDK_DISABLED: 'maybe' })).toThrow(/OTEL_SDK_DISABLED="maybe"/);
  });
});

describe('telemetryEnabled', () => {
  it('is off by default', () => {
    expect(telemetryEnabled(parse({}))).toBe(false);
  });

  it('is on when the OTLP endpoint is set', () => {
    expect(telemetryEnabled(parse({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }))).toBe(true);
  });

  it('is on when only the traces endpoint is set', () => {
    expect(
      telemetryEnabled(parse({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })),
    ).toBe(true);
  });

  it('stays off with only a metrics endpoint: spans are what it starts for', () => {
    expect(
      telemetryEnabled(parse({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://127.0.0.1:4318/v1/metrics' })),
    ).toBe(false);
  });

  it('is off when OTEL_SDK_DISABLED=true, even with an endpoint', () => {
    expect(
      telemetryEnabled(
        parse({
          OTEL_SDK_DISABLED: 'true',
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces',
        }),
      ),
    ).toBe(false);
  });
});
