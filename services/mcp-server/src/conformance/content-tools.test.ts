import { afterEach, describe, expect, it } from 'vitest';
import type { Connected } from '../test-support/in-memory.js';
import { TINY_PNG_BASE64, TINY_WAV_BASE64 } from './media.js';
import { connectWithFixtures } from './test-support/connect.js';

describe('conformance content tools', () => {
  let connected: Connected | undefined;
  afterEach(async () => connected?.close());
  const call = async (name: string) => {
    connected = await connectWithFixtures();
    return connected.client.callTool({ name, arguments: {} });
  };

  it('returns the exact texts and content types the suite describes', async () => {
    expect((await call('test_simple_text')).content).toEqual([
      { type: 'text', text: 'This is a simple text response for testing.' },
    ]);
    await connected?.close();
    const mixed = await call('test_multiple_content_types');
    expect((mixed.content as Array<{ type: string }>).map((block) => block.type)).toEqual([
      'text',
      'image',
      'resource',
    ]);
    expect(mixed.content).toContainEqual({
      type: 'resource',
      resource: {
        uri: 'test://mixed-content-resource',
        mimeType: 'application/json',
        text: '{"test":"data","value":123}',
      },
    });
  });

  it('returns audio as audio/wav and an image as image/png', async () => {
    expect((await call('test_audio_content')).content).toEqual([
      { type: 'audio', data: TINY_WAV_BASE64, mimeType: 'audio/wav' },
    ]);
    await connected?.close();
    expect((await call('test_image_content')).content).toEqual([
      { type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' },
    ]);
  });

  it('answers test_error_handling with isError and a message', async () => {
    const result = await call('test_error_handling');
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: 'This tool intentionally returns an error for testing' },
    ]);
  });
});

describe('conformance media', () => {
  it('is a PNG: signature, IHDR of 1x1', () => {
    const png = Buffer.from(TINY_PNG_BASE64, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1, 1]);
  });

  it('is a WAV: RIFF size matches, PCM format, data chunk holds the rest', () => {
    const wav = Buffer.from(TINY_WAV_BASE64, 'base64');
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.subarray(8, 16).toString('latin1')).toBe('WAVEfmt ');
    expect(wav.readUInt16LE(20)).toBe(1); // PCM
    expect(wav.subarray(36, 40).toString('latin1')).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
  });
});
