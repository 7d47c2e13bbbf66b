/**
 * The curl path against cross-site use, over real HTTP: what a hostile page can make a browser
 * send (text/plain and form bodies, a foreign Origin, the same host on another port) runs no tool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_OWNER } from '../auth/caller.js';
import { startTestServer, type TestServer } from '../test-support/http.js';
import { isJsonContentType } from './curl-path-guard.js';

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['Application/JSON; charset=utf-8', true],
    [' application/json ', true],
    ['text/plain', false],
    ['text/plain;charset=UTF-8', false],
    ['application/x-www-form-urlencoded', false],
    ['multipart/form-data; boundary=x', false],
    ['application/json-patch+json', false],
    ['application/jsonx', false],
    ['', false],
    [undefined, false],
  ])('%j → %s', (value, expected) => {
    expect(isJsonContentType(value)).toBe(expected);
  });
});

describe('the curl path refuses what a cross-site page can send', () => {
  let srv: TestServer;
  const added = () => srv.deps.tasks.list(SHARED_OWNER, 'all');
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => {
    await srv.close();
  });

  const post = (headers: Record<string, string>, body?: string) =>
    fetch(`${srv.baseUrl}/tools/add_task`, { method: 'POST', headers, body });

  it.each([
    ['text/plain', 'text/plain;charset=UTF-8', '{"title":"from a hostile page"}'],
    ['a form', 'application/x-www-form-urlencoded', 'title=from+a+hostile+page'],
    [
      'multipart',
      'multipart/form-data; boundary=b',
      '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--b--',
    ],
    ['an empty text/plain body', 'text/plain', ''],
  ])('answers %s with 415 and adds nothing', async (_label, contentType, body) => {
    const response = await post({ 'content-type': contentType }, body);
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringMatching(/application\/json/) },
    });
    expect(await added()).toEqual([]);
  });

  it('answers a body without any Content-Type with 415', async () => {
    // fetch always labels a string body; a raw Blob without a type goes out unlabelled.
    const response = await post({}, new Blob(['{"title":"x"}']) as unknown as string);
    expect(response.status).toBe(415);
    expect(await added()).toEqual([]);
  });

  it.each([
    ['another port on the same host', (port: number) => `http://127.0.0.1:${port + 1}`],
    ['localhost on port 9', () => 'http://localhost:9'],
    ['another scheme', (port: number) => `https://127.0.0.1:${port}`],
    ['a foreign site', () => 'https://evil.example'],
    ['the opaque origin "null"', () => 'null'],
    ['junk', () => 'not a url'],
  ])('answers an Origin of %s with 403 and adds nothing', async (_label, origin) => {
    const port = Number(new URL(srv.baseUrl).port);
    const response = await post(
      { 'content-type': 'application/json', origin: origin(port) },
      '{"title":"x"}',
    );
    expect(response.status).toBe(403);
    expect(await added()).toEqual([]);
  });

  it('runs the tool for JSON from its own origin, and from curl (no Origin)', async () => {
    const sameOrigin = await post(
      { 'content-type': 'application/json', origin: srv.baseUrl },
      '{"title":"one"}',
    );
    expect(sameOrigin.status).toBe(200);
    const curl = await post({ 'content-type': 'application/json; charset=utf-8' }, '{"title":"two"}');
    expect(curl.status).toBe(200);
    expect((await added()).map((task) => task.title)).toEqual(['one', 'two']);
  });

  it('still treats a bare POST (no body, no Content-Type) as a call without arguments', async () => {
    const response = await fetch(`${srv.baseUrl}/tools/list_cities`, { method: 'POST' });
    expect(response.status).toBe(200);
  });
});
