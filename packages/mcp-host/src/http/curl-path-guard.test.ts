/**
 * @module http/curl-path-guard.test
 * The curl path against cross-site use, over real HTTP on the fixture server: what a hostile page
 * can make a browser send (text/plain and form bodies, a foreign Origin, the same host on another
 * port) runs no tool; JSON from curl or the server's own origin does. The fixture's `echo` says
 * back what it got, so "ran" and "did not run" are told apart by the answer itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureHost } from '../test-support/fixture-host.js';
import { isJsonContentType } from './curl-path-guard.js';
import type { HttpHost } from './start.js';

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
  let host: HttpHost;
  beforeAll(async () => {
    host = await startFixtureHost();
  });
  afterAll(async () => {
    await host.close();
  });

  const post = (headers: Record<string, string>, body?: string | Blob) =>
    fetch(`${host.baseUrl}/tools/echo`, { method: 'POST', headers, ...(body !== undefined && { body }) });

  it.each([
    ['text/plain', 'text/plain;charset=UTF-8', '{"text":"from a hostile page"}'],
    ['a form', 'application/x-www-form-urlencoded', 'text=from+a+hostile+page'],
    [
      'multipart',
      'multipart/form-data; boundary=b',
      '--b\r\nContent-Disposition: form-data; name="text"\r\n\r\nx\r\n--b--',
    ],
    ['an empty text/plain body', 'text/plain', ''],
  ])('answers %s with 415 and runs nothing', async (_label, contentType, body) => {
    const response = await post({ 'content-type': contentType }, body);
    expect(response.status).toBe(415);
    const answer = await response.text();
    expect(JSON.parse(answer)).toMatchObject({
      error: { message: expect.stringMatching(/application\/json/) },
    });
    expect(answer).not.toMatch(/hostile page/);
  });

  it('answers a body without any Content-Type with 415', async () => {
    // fetch always labels a string body; a Blob without a type goes out unlabelled.
    const response = await post({}, new Blob(['{"text":"x"}']));
    expect(response.status).toBe(415);
  });

  it.each([
    ['another port on the same host', (port: number) => `http://127.0.0.1:${port + 1}`],
    ['localhost on port 9', () => 'http://localhost:9'],
    ['another scheme', (port: number) => `https://127.0.0.1:${port}`],
    ['a foreign site', () => 'https://evil.example'],
    ['the opaque origin "null"', () => 'null'],
    ['junk', () => 'not a url'],
  ])('answers an Origin of %s with 403 and runs nothing', async (_label, origin) => {
    const response = await post(
      { 'content-type': 'application/json', origin: origin(host.port) },
      '{"text":"x"}',
    );
    expect(response.status).toBe(403);
  });

  it('runs the tool for JSON from its own origin, and from curl (no Origin)', async () => {
    const sameOrigin = await post(
      { 'content-type': 'application/json', origin: host.baseUrl },
      '{"text":"one"}',
    );
    expect(sameOrigin.status).toBe(200);
    expect(await sameOrigin.text()).toMatch(/one/);
    const curl = await post({ 'content-type': 'application/json; charset=utf-8' }, '{"text":"two"}');
    expect(curl.status).toBe(200);
    expect(await curl.text()).toMatch(/two/);
  });

  it('still treats a bare POST (no body, no Content-Type) as a call without arguments', async () => {
    const response = await fetch(`${host.baseUrl}/tools/whoami`, { method: 'POST' });
    expect(response.status).toBe(200);
  });
});
