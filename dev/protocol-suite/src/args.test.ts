/**
 * @module args.test
 * `parseCliArgs`: the CLI's flags, allowed and refused, without a process.
 */
import { describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from './args.js';
import { REVISIONS } from './revisions.js';

const URL_FLAG = ['--url', 'http://127.0.0.1:3000/mcp'];

describe('parseCliArgs', () => {
  it('runs every revision against the given URL by default', () => {
    const request = parseCliArgs(URL_FLAG);
    expect(request.kind).toBe('run');
    if (request.kind !== 'run') return;
    expect(request.url.href).toBe('http://127.0.0.1:3000/mcp');
    expect(request.revisions).toEqual(REVISIONS);
  });

  it('takes repeated --revision flags and comma lists, oldest first', () => {
    const request = parseCliArgs([
      ...URL_FLAG,
      '--revision',
      '2026-07-28',
      '--revision',
      '2024-11-05,2025-06-18',
    ]);
    expect(request.kind === 'run' && request.revisions).toEqual(['2024-11-05', '2025-06-18', '2026-07-28']);
  });

  it('answers --help and -h without needing a URL', () => {
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseCliArgs(['-h', '--url', 'nope'])).toEqual({ kind: 'help' });
  });

  it('refuses a missing --url with the usage, rather than starting a server', () => {
    expect(() => parseCliArgs([])).toThrow(UsageError);
    expect(() => parseCliArgs(['--revision', '2025-11-25'])).toThrow(
      /--url is required \(usage: protocol-suite/,
    );
  });

  it('refuses a malformed URL and a non-http(s) scheme', () => {
    expect(() => parseCliArgs(['--url', 'not a url'])).toThrow(/--url "not a url" must be an http/);
    expect(() => parseCliArgs(['--url', 'ftp://127.0.0.1/mcp'])).toThrow(
      /must be an http:\/\/ or https:\/\//,
    );
  });

  it('refuses an unknown or empty revision', () => {
    expect(() => parseCliArgs([...URL_FLAG, '--revision', '2025-13-01'])).toThrow(
      /--revision unknown revision 2025-13-01; known:/,
    );
    expect(() => parseCliArgs([...URL_FLAG, '--revision', ','])).toThrow(/names no revision/);
  });

  it('refuses unknown flags, positionals and a flag without its value', () => {
    expect(() => parseCliArgs([...URL_FLAG, '--bail'])).toThrow(/Unknown option '--bail'/);
    expect(() => parseCliArgs([...URL_FLAG, 'extra'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--url'])).toThrow(UsageError);
  });
});
