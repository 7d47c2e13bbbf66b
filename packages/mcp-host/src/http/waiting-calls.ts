/**
 * @module http/waiting-calls
 * A 2025 call that asks its client something (elicitation, sampling, roots) keeps its POST
 * response open until somebody answers, which can take minutes: a long-lived response, like a GET
 * stream. So from the server's first question until the call's answer goes out, it holds one of
 * the client's stream shares (`client-shares.ts`), and it ends with the token that started it
 * (`token-lifetime.ts`): the call is cancelled as if the client had sent `notifications/cancelled`,
 * and its response ends. Ordinary calls, which never ask, cost a map entry and nothing else.
 * Test: `sign-in-limits.http.test.ts` in dev/host-integration.
 */
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Response } from 'express';
import type { ClientShares } from './client-shares.js';
import { endWithToken, type TokenClock } from './token-lifetime.js';

type RequestId = string | number;

export interface WaitingCallsOptions {
  streams: ClientShares;
  /** The session's client, as its shares are keyed (`RequestReading.clientKey`). */
  clientKey: string;
  /** The token clock when sign-in is on; without it a waiting call never expires. */
  clock: TokenClock | undefined;
}

export interface WaitingCalls {
  /**
   * Marks the POST answering `ids` (the request ids its body carries) as in flight on this session,
   * until `res` closes. Only such a call can start waiting.
   */
  track(ids: readonly RequestId[], res: Response, auth: AuthInfo | undefined): void;
}

interface Call {
  res: Response;
  auth: AuthInfo | undefined;
  /** Gives the stream share back; set while the call waits on its client. */
  release?: () => void;
}

/** Thrown into the server's question when the client holds its whole share: the tool sees it fail. */
export class StreamShareExhaustedError extends Error {
  override name = 'StreamShareExhaustedError';
}

/**
 * Watches what the session's server sends: a request related to a client's call starts that
 * call's wait, and the call's own answer ends it.
 */
export function watchWaitingCalls(
  transport: NodeStreamableHTTPServerTransport,
  options: WaitingCallsOptions,
): WaitingCalls {
  const calls = new Map<RequestId, Call>();
  const send = transport.send.bind(transport);

  const startWaiting = (id: RequestId) => {
    const call = calls.get(id);
    if (!call || call.release) return;
    const taken = options.streams.take(options.clientKey);
    if (typeof taken !== 'function') {
      throw new StreamShareExhaustedError(
        `This client holds all ${options.streams.perClient} of its open streams and waiting calls; close one and retry.`,
      );
    }
    call.release = taken;
    if (options.clock) {
      endWithToken(call.res, call.auth, options.clock, () => {
        // As if the client had cancelled: the tool's signal aborts, so its question stops waiting.
        void transport.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'The access token that started this call expired.' },
        });
      });
    }
  };

  transport.send = async (message, sendOptions) => {
    const related = sendOptions?.relatedRequestId;
    if (related !== undefined && 'method' in message && 'id' in message) startWaiting(related);
    return send(message, sendOptions);
  };

  return {
    track(ids, res, auth) {
      if (ids.length === 0) return;
      const call: Call = { res, auth };
      for (const id of ids) calls.set(id, call);
      res.once('close', () => {
        call.release?.();
        for (const id of ids) if (calls.get(id) === call) calls.delete(id);
      });
    },
  };
}
