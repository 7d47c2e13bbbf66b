/**
 * @module conformance/media
 * The smallest valid media the conformance fixtures return. Kept as constants so no fixture reads
 * a file, and checked by `fixtures.test.ts` (PNG signature, WAV header).
 */

/** A 1x1 transparent PNG (grey + alpha), 67 bytes, with valid chunk CRCs. */
export const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** One millisecond of silence: RIFF/WAVE, PCM, mono, 8 kHz, 8-bit, 8 samples (52 bytes). */
export const TINY_WAV_BASE64 = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==';
