/**
 * @module llm/create-provider
 * Chooses which model answers: OpenAI with an API key, any OpenAI-compatible server with a base URL
 * (Ollama, LM Studio, ...), or the offline demo model when neither is set. `describeModel` is the pure
 * decision; `createModelProvider` builds the client around it. Test: `create-provider.test.ts`.
 */
import OpenAI from 'openai';
import { createChatProvider } from './openai-chat.js';
import { createResponsesProvider } from './openai-responses.js';
import type { ModelDescription, ModelProvider } from './provider.js';

/** Cheap, fast and good at tool calls: a sensible default for a workshop. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';
/** The demo model answers to any model name; this one shows up in traces. */
export const DEMO_MODEL = 'offline-demo-model';
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Ollama and LM Studio ignore the key, but the `openai` client refuses to start without one. */
export const PLACEHOLDER_API_KEY = 'not-needed';
/** One retry rides out a blip; the client's default of two, with back-off, hides a dead server for seconds. */
export const MODEL_MAX_RETRIES = 1;
/**
 * How long to wait for the response to start (the `openai` client's timeout ends when headers arrive;
 * `MODEL_STREAM_IDLE_TIMEOUT_MS` bounds the stream after that). A cold local model can take minutes
 * to load; ten minutes, the client's default, is longer than anyone waits at a prompt.
 */
export const MODEL_REQUEST_TIMEOUT_MS = 180_000;
export const DEMO_MODEL_LABEL = 'offline demo model (scripted, not a language model)';

export interface ModelSettings {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  model?: string | undefined;
  api: 'chat' | 'responses';
  /** Where the offline demo model listens; required when neither `apiKey` nor `baseUrl` is set. */
  demoBaseUrl?: string | undefined;
  /**
   * Ask Chat Completions streams for token usage (`stream_options.include_usage`), for the `chat`
   * span. Only with telemetry on: some OpenAI-compatible servers refuse the field.
   */
  reportUsage?: boolean;
}

/**
 * Which model the settings select. A base URL wins (custom server, key optional); else an API key
 * means OpenAI; else the demo model. Empty strings count as unset. Throws when the demo model is
 * selected but `demoBaseUrl` is missing, which is a wiring bug.
 */
export function describeModel(settings: ModelSettings): ModelDescription {
  const apiKey = present(settings.apiKey);
  const baseUrl = present(settings.baseUrl);
  const model = present(settings.model);
  const { api } = settings;

  if (baseUrl !== undefined) {
    const name = model ?? DEFAULT_OPENAI_MODEL;
    return { kind: 'custom', model: name, baseUrl, api, label: `${name} at ${baseUrl}` };
  }
  if (apiKey !== undefined) {
    const name = model ?? DEFAULT_OPENAI_MODEL;
    return { kind: 'openai', model: name, baseUrl: OPENAI_BASE_URL, api, label: `OpenAI ${name}` };
  }
  const demoBaseUrl = present(settings.demoBaseUrl);
  if (demoBaseUrl === undefined) {
    throw new TypeError('describeModel: demoBaseUrl is required when neither apiKey nor baseUrl is set');
  }
  return { kind: 'demo', model: model ?? DEMO_MODEL, baseUrl: demoBaseUrl, api, label: DEMO_MODEL_LABEL };
}

/** Builds the `openai` client and the provider for `settings.api`. Makes no request. */
export function createModelProvider(settings: ModelSettings): ModelProvider {
  const description = describeModel(settings);
  const client = new OpenAI({
    apiKey: present(settings.apiKey) ?? PLACEHOLDER_API_KEY,
    baseURL: description.baseUrl,
    maxRetries: MODEL_MAX_RETRIES,
    timeout: MODEL_REQUEST_TIMEOUT_MS,
    // Explicit nulls, so the client does not read OPENAI_ORG_ID / OPENAI_PROJECT_ID behind env.ts's back.
    organization: null,
    project: null,
  });
  return description.api === 'responses'
    ? createResponsesProvider({ client, description })
    : createChatProvider({ client, description, reportUsage: settings.reportUsage === true });
}

function present(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
