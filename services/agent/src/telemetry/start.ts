/**
 * @module telemetry/start
 * Starts OpenTelemetry for the agent: one trace per question. The turn is an `invoke_agent` span
 * (GenAI conventions), each model call a `chat {model}` span with the model, token usage and finish
 * reason the endpoint reported, and each MCP request a client span whose context travels in the
 * request's `_meta`, so the server's spans join the same trace. Loaded only when telemetry is on.
 */
import type { TelemetryEnv } from '@mcp-workshop/telemetry';
import { serverOf, startTelemetry, traceClientTransport, traceMcpClient } from '@mcp-workshop/telemetry/sdk';
import { type Attributes, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ModelDescription, ModelReport } from '../llm/provider.js';
import { AGENT_NAME, AGENT_VERSION } from '../version.js';
import type { AgentTelemetry } from './types.js';

/** Every endpoint the agent talks to speaks OpenAI's API, so the conventions call the provider `openai`. */
const PROVIDER = 'openai';

function endpointAttributes(baseUrl: string): Attributes {
  const server = serverOf(baseUrl);
  return server ? { 'server.address': server.address, 'server.port': server.port } : {};
}

function reportAttributes(report: ModelReport | undefined): Attributes {
  if (!report) return {};
  return {
    ...(report.responseId && { 'gen_ai.response.id': report.responseId }),
    ...(report.responseModel && { 'gen_ai.response.model': report.responseModel }),
    ...(report.finishReason && { 'gen_ai.response.finish_reasons': [report.finishReason] }),
    ...(report.inputTokens !== undefined && { 'gen_ai.usage.input_tokens': report.inputTokens }),
    ...(report.outputTokens !== undefined && { 'gen_ai.usage.output_tokens': report.outputTokens }),
  };
}

/** The error's name only: a model error's message can quote the endpoint's answer or the question. */
function fail(span: Span, error: unknown): void {
  const type = error instanceof Error ? error.name : '_OTHER';
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

export function startAgentTelemetry(env: TelemetryEnv, model: ModelDescription): AgentTelemetry {
  const telemetry = startTelemetry({ env, serviceName: AGENT_NAME, serviceVersion: AGENT_VERSION });
  const { tracer } = telemetry;
  // Token totals per turn: each chat span adds its usage to the invoke_agent span around it.
  const totals = new WeakMap<Span, { input: number; output: number }>();

  return {
    turn(conversationId, run) {
      return tracer.startActiveSpan(
        `invoke_agent ${AGENT_NAME}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.provider.name': PROVIDER,
            'gen_ai.agent.name': AGENT_NAME,
            'gen_ai.agent.version': AGENT_VERSION,
            'gen_ai.conversation.id': conversationId,
            'gen_ai.request.model': model.model,
          },
        },
        async (span) => {
          totals.set(span, { input: 0, output: 0 });
          try {
            const result = await run();
            const used = totals.get(span);
            if (used && (used.input > 0 || used.output > 0)) {
              span.setAttributes({
                'gen_ai.usage.input_tokens': used.input,
                'gen_ai.usage.output_tokens': used.output,
              });
            }
            // Only a sampled trace reaches the backend; an id that leads nowhere is not shown.
            return span.isRecording() ? { ...result, traceId: span.spanContext().traceId } : result;
          } catch (error) {
            fail(span, error);
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },

    chat(description, run) {
      const turnSpan = trace.getActiveSpan();
      return tracer.startActiveSpan(
        `chat ${description.model}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': PROVIDER,
            'gen_ai.request.model': description.model,
            'gen_ai.request.stream': true,
            ...endpointAttributes(description.baseUrl),
          },
        },
        async (span) => {
          try {
            const turn = await run();
            span.setAttributes(reportAttributes(turn.report));
            const used = turnSpan && totals.get(turnSpan);
            if (used) {
              used.input += turn.report?.inputTokens ?? 0;
              used.output += turn.report?.outputTokens ?? 0;
            }
            return turn;
          } catch (error) {
            fail(span, error);
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },

    mcp: {
      traceClient(client, spec) {
        const server = spec.transport === 'http' ? serverOf(spec.url) : undefined;
        traceMcpClient(client, telemetry, { transport: spec.transport, ...(server && { server }) });
      },
      traceTransport: (transport) => traceClientTransport(transport),
    },
    flush: () => telemetry.flush(),
    shutdown: () => telemetry.shutdown(),
  };
}
