/**
 * @module views/read-view
 * Turns a `resources/read` answer into a `ViewResource`: one HTML document of the MCP Apps MIME type,
 * within a size bound, with its declared origins checked (`csp.ts`). A server that answers anything
 * else gets a `ViewError`, which the HTTP API passes on as a 502 with the reason.
 */
import { isPlainObject } from '@mcp-workshop/shared';
import type { ViewResource } from '../types.js';
import { readViewCsp } from './csp.js';
import { VIEW_MIME_TYPE } from './ui-meta.js';

/** A bundled view is tens of kilobytes; 2 MB leaves room for inlined images, not for a video. */
export const MAX_VIEW_HTML_BYTES = 2 * 1024 * 1024;
/** Reading a view is cheap; a server that takes longer is not going to answer. */
export const VIEW_READ_TIMEOUT_MS = 15_000;

export type ViewErrorKind = 'not_found' | 'bad_resource';

/** Why a view could not be had: no such view (404), or the server's answer is not one (502). */
export class ViewError extends Error {
  constructor(
    readonly kind: ViewErrorKind,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

function decodeHtml(content: Record<string, unknown>, uri: string): string {
  if (typeof content.text === 'string') {
    if (Buffer.byteLength(content.text) > MAX_VIEW_HTML_BYTES) throw tooBig(uri);
    return content.text;
  }
  if (typeof content.blob === 'string') {
    // Base64 is 4/3 of the bytes: check before decoding, so a huge blob is never held twice.
    if (content.blob.length > (MAX_VIEW_HTML_BYTES * 4) / 3 + 4) throw tooBig(uri);
    // The check above is a few bytes loose (padding rounds up); the decoded bytes decide.
    const bytes = Buffer.from(content.blob, 'base64');
    if (bytes.byteLength > MAX_VIEW_HTML_BYTES) throw tooBig(uri);
    return bytes.toString('utf8');
  }
  throw new ViewError('bad_resource', `${uri} has neither text nor blob`);
}

function tooBig(uri: string): ViewError {
  return new ViewError('bad_resource', `${uri} is larger than ${MAX_VIEW_HTML_BYTES} bytes`);
}

/**
 * The view in `result` (what `resources/read` of `uri` answered). `dropped` hears each declared
 * origin that was left out of the policy.
 */
export function toViewResource(
  server: string,
  uri: string,
  result: unknown,
  dropped: (entry: string) => void = () => {},
): ViewResource {
  const contents = isPlainObject(result) && Array.isArray(result.contents) ? result.contents : [];
  const content = contents.find(
    (item): item is Record<string, unknown> => isPlainObject(item) && item.uri === uri,
  );
  if (!content)
    throw new ViewError('bad_resource', `the server's answer for ${uri} holds no contents for it`);
  const mimeType =
    typeof content.mimeType === 'string' ? content.mimeType.replaceAll(' ', '').toLowerCase() : '';
  if (mimeType !== VIEW_MIME_TYPE) {
    throw new ViewError(
      'bad_resource',
      `${uri} is ${content.mimeType === undefined ? 'of no MIME type' : `"${String(content.mimeType).slice(0, 80)}"`}, not ${VIEW_MIME_TYPE}`,
    );
  }
  const html = decodeHtml(content, uri);
  const ui = isPlainObject(content._meta) && isPlainObject(content._meta.ui) ? content._meta.ui : {};
  return {
    server,
    uri,
    html,
    csp: readViewCsp(ui.csp, dropped),
    ...(typeof ui.prefersBorder === 'boolean' && { prefersBorder: ui.prefersBorder }),
  };
}
