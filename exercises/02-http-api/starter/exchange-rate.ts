/**
 * @module 02-http-api/starter/exchange-rate
 * Exercise 02: `get_exchange_rate { from, to }`, which asks an HTTP API. It works while the API
 * works; make it fail well. Edit this file; `pnpm exercise 02` checks it against a local fake API.
 */
import { defineTool, type WorkshopTool } from '@mcp-workshop/mcp-server';
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';

export interface ExchangeRateOptions {
  /** The API's base URL, e.g. `http://127.0.0.1:4010/`; the tool calls `GET <base>rates?from=EUR&to=NOK`. */
  baseUrl: string;
  /** How long to wait for the API before giving up. */
  timeoutMs: number;
}

const currency = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code in capitals')
  .describe('An ISO 4217 currency code in capitals, e.g. "EUR", "NOK" or "USD".');

const input = z.object({ from: currency, to: currency });

const output = z.object({
  from: z.string().describe('The currency converted from.'),
  to: z.string().describe('The currency converted to.'),
  rate: z.number().describe('How many `to` one `from` buys.'),
});

/** A factory, not a constant: the URL and the timeout come from whoever builds the server (and from tests). */
export function createExchangeRateTool({ baseUrl, timeoutMs }: ExchangeRateOptions): WorkshopTool {
  return defineTool({
    name: 'get_exchange_rate',
    title: 'Exchange rate',
    description:
      'Get the current exchange rate between two currencies from the rates service. ' +
      'Use it to convert prices. Returns { from, to, rate }.',
    input,
    output,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run({ from, to }, { signal }) {
      const url = new URL('rates', baseUrl);
      url.searchParams.set('from', from);
      url.searchParams.set('to', to);

      // TODO(exercise 02): this waits forever for an API that hangs. Stop after `timeoutMs`
      // (AbortSignal.timeout), and still stop when the client cancels (`signal`; see AbortSignal.any).
      // A timeout is an isError result that says the service did not answer in time.
      void signal;
      void timeoutMs;
      const response = await fetch(url);

      // TODO(exercise 02): check response.status before reading the body.
      // - 404: the API says why (`{ "error": "..." }`); the model can act on that, so pass it on with fail().
      // - anything else that is not 200: fail() with a short sentence. Never copy the body: it may hold
      //   internals the model must not see (ADR 004).
      const body = (await response.json()) as { rate: number };
      return ok({ from, to, rate: body.rate });
    },
  });
}
