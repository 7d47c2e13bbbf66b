/**
 * @module schemas
 * Zod schemas for the result of an MCP `tools/call`, following the spec's `CallToolResult`
 * (2025-06-18 and 2025-11-25). Every object is strict: a field the spec does not define,
 * such as a home-made `requestId`, is rejected instead of being passed along silently.
 */
import { z } from 'zod';

/** Optional hints a server may attach to any content block. */
export const AnnotationsSchema = z.strictObject({
  audience: z.array(z.enum(['user', 'assistant'])).optional(),
  priority: z.number().min(0).max(1).optional(),
  lastModified: z.string().optional(),
});

/** `_meta` is the spec's one open-ended extension point; everything else is closed. */
const MetaSchema = z.record(z.string(), z.unknown());

/** Standard base64 (RFC 4648) with padding; the spec carries image, audio and blobs this way. */
const Base64Schema = z.base64();

export const TextContentSchema = z.strictObject({
  type: z.literal('text'),
  text: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});

export const ImageContentSchema = z.strictObject({
  type: z.literal('image'),
  data: Base64Schema,
  mimeType: z.string().min(1),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});

export const AudioContentSchema = z.strictObject({
  type: z.literal('audio'),
  data: Base64Schema,
  mimeType: z.string().min(1),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});

const IconSchema = z.strictObject({
  src: z.string(),
  mimeType: z.string().optional(),
  sizes: z.array(z.string()).optional(),
  theme: z.enum(['light', 'dark']).optional(),
});

/** A pointer to a resource the client may read later; it carries the `Resource` fields. */
export const ResourceLinkSchema = z.strictObject({
  type: z.literal('resource_link'),
  uri: z.string().min(1),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
  icons: z.array(IconSchema).optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});

export const TextResourceContentsSchema = z.strictObject({
  uri: z.string().min(1),
  mimeType: z.string().optional(),
  text: z.string(),
  _meta: MetaSchema.optional(),
});

export const BlobResourceContentsSchema = z.strictObject({
  uri: z.string().min(1),
  mimeType: z.string().optional(),
  blob: Base64Schema,
  _meta: MetaSchema.optional(),
});

/** A resource's contents inlined into the result: exactly one of `text` or `blob`. */
export const EmbeddedResourceSchema = z.strictObject({
  type: z.literal('resource'),
  resource: z.union([TextResourceContentsSchema, BlobResourceContentsSchema]),
  annotations: AnnotationsSchema.optional(),
  _meta: MetaSchema.optional(),
});

/** The five content types the spec defines. There is no `"object"` type. */
export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);

/**
 * `structuredContent` must be a JSON object in the 2025 revisions: never an array, a string,
 * a number or `null`. Lists are wrapped, e.g. `{ items: [...], count: 3 }`.
 */
export const StructuredContentSchema = z.custom<Record<string, unknown>>(isPlainObject, {
  message: 'structuredContent must be a JSON object (wrap lists as { items, count })',
});

/** The result of `tools/call`, as the spec defines it and nothing more. */
export const CallToolResultSchema = z.strictObject({
  content: z.array(ContentBlockSchema),
  structuredContent: StructuredContentSchema.optional(),
  isError: z.boolean().optional(),
  /** Added to every result by the 2026-07-28 revision; the SDK client strips it. */
  resultType: z.literal('complete').optional(),
  _meta: MetaSchema.optional(),
});

export type Annotations = z.infer<typeof AnnotationsSchema>;
export type TextContent = z.infer<typeof TextContentSchema>;
export type ImageContent = z.infer<typeof ImageContentSchema>;
export type AudioContent = z.infer<typeof AudioContentSchema>;
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type StructuredContent = z.infer<typeof StructuredContentSchema>;
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/**
 * Any `{...}` value, class instances included; arrays and null are not records. For walking parsed
 * JSON and JSON Schemas, where every object is plain anyway; `isPlainObject` is the strict check.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for `{...}` values that JSON can carry as an object: not arrays, not null, not class instances. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
