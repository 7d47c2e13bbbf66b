/**
 * @module .solutions/02-http-api/exchange-rate
 * A solution to exercise 02: a bounded wait that also honours cancellation, and an `isError`
 * result for each way the API can fail, worded for the model and leaking nothing.
 */
import { defineTool, type WorkshopTool } from '@mcp-workshop/mcp-server';
import { fail, ok } from '@mcp-workshop/shared';
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

const apiBody = z.object({ rate: z.number() });
const apiError = z.object({ error: z.string().max(200) });

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

      let response: Response;
      let body: unknown;
      try {
        // Whichever comes first: our own deadline, or the client cancelling the call.
        const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
        response = await fetch(url, { signal: deadline });
        body = await response.json().catch(() => undefined);
      } catch (error) {
        if (error instanceof Error && error.name === 'TimeoutError') {
          return fail(`The rates service did not answer within ${timeoutMs} ms. Try again in a moment.`);
        }
        if (signal.aborted) throw error;
        return fail('The rates service could not be reached. Try again later.');
      }

      if (response.status === 404) {
        const reason = apiError.safeParse(body);
        return fail(
          reason.success ? `${reason.data.error}. Use ISO 4217 codes such as "EUR".` : 'Unknown currency.',
        );
      }
      if (!response.ok) {
        return fail(`The rates service failed (HTTP ${response.status}). Try again later.`);
      }
      const parsed = apiBody.safeParse(body);
      if (!parsed.success) return fail('The rates service sent an answer this tool does not understand.');
      return ok({ from, to, rate: parsed.data.rate });
    },
  });
}
