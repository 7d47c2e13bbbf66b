/**
 * @module content
 * The one opt-in that puts tool arguments and results on spans
 * (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`), for local debugging only: each
 * value is JSON cut to {@link MAX_CONTENT_CHARS} characters, so a large result never reaches
 * the exporter whole. Off (the default), nothing a person typed or a tool returned is recorded.
 */

export const MAX_CONTENT_CHARS = 4096;

/** JSON text of `value`, cut to the cap with a marker that says how long it was. */
export function cappedJson(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(value) ?? 'undefined';
  } catch {
    json = '"[not serializable]"';
  }
  if (json.length <= MAX_CONTENT_CHARS) return json;
  return `${json.slice(0, MAX_CONTENT_CHARS)}… [${json.length} characters, cut]`;
}
