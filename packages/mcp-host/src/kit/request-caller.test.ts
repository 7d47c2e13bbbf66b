/**
 * `request-caller.ts`: completions learn who asks, and fail closed where nobody installed that.
 * The per-owner answers themselves are tested with the resources and prompts that use it.
 */

import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { connectInProcess } from '../in-process.js';
import { completionCaller, installCompletionCaller, wrapInstalledHandler } from './request-caller.js';

/** A server whose one template completes with whatever `completionCaller()` says. */
function serverReportingCaller(): McpServer {
  const server = new McpServer({ name: 't', version: '0' });
  server.registerResource(
    'probe',
    new ResourceTemplate('probe://{x}', {
      list: undefined,
      complete: {
        x: () => {
          const caller = completionCaller();
          return [caller === undefined ? 'no caller' : `caller ${caller.authInfo?.clientId ?? 'none'}`];
        },
      },
    }),
    {},
    async (uri) => ({ contents: [{ uri: uri.href, text: '' }] }),
  );
  return server;
}

const complete = async (server: McpServer) => {
  const conn = await connectInProcess(server);
  try {
    const { completion } = await conn.client.complete({
      ref: { type: 'ref/resource', uri: 'probe://{x}' },
      argument: { name: 'x', value: '' },
    });
    return completion.values;
  } finally {
    await conn.close();
  }
};

describe('request-caller', () => {
  it('knows no caller outside a completion, and in one the server never wrapped', async () => {
    expect(completionCaller()).toBeUndefined();
    expect(await complete(serverReportingCaller())).toEqual(['no caller']);
  });

  it('knows the caller, with or without a token, once installed', async () => {
    const server = serverReportingCaller();
    installCompletionCaller(server);
    expect(await complete(server)).toEqual(['caller none']);
    expect(completionCaller()).toBeUndefined();
  });

  it('reports false, and changes nothing, for a method with no handler installed', () => {
    const server = new McpServer({ name: 't', version: '0' });
    expect(wrapInstalledHandler(server, 'completion/complete', async () => ({}))).toBe(false);
  });
});
