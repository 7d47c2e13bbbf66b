/**
 * @module limiter-cost
 * What the rate limits cost a call, measured directly: the server's limit middleware (as shipped,
 * `createRateLimits` from the host) and, for comparison, express-rate-limit's `rateLimit` with the
 * options it replaced (draft-8 headers, a memory store), each run on real `node:http` request and
 * response objects with express's methods, against a pass-through middleware on the same objects.
 * The difference is the limit's own CPU per call, which the report sets against the server's whole
 * CPU per call (throughput section). A share this small cannot be read off two throughput rows on a
 * busy 2-core machine, where rounds move by ±10%; the rows are printed too.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { createRateLimits } from '@mcp-workshop/mcp-host';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';

export interface LimiterCostRow {
  id: 'ours' | 'express-rate-limit';
  label: string;
  /** CPU per call above the pass-through, µs. */
  microsPerCall: number;
}

/** A request and response as express hands them to middleware, with a fresh socket each. */
function exchange(): { req: Request; res: Response } {
  const socket = new Socket();
  const req = new IncomingMessage(socket);
  req.method = 'POST';
  req.url = '/tools/calculate';
  req.headers = { host: '127.0.0.1', 'content-type': 'application/json' };
  const res = new ServerResponse(req);
  Object.setPrototypeOf(req, express.request);
  Object.setPrototypeOf(res, express.response);
  const expressReq = req as unknown as Request;
  Object.defineProperty(expressReq, 'ip', { value: '127.0.0.1' });
  (expressReq as unknown as { originalUrl: string }).originalUrl = req.url;
  (res as unknown as { req: IncomingMessage }).req = req;
  return { req: expressReq, res: res as unknown as Response };
}

/** Runs `middleware` on `calls` fresh exchanges, each to its `next`; CPU µs per call. */
async function microsPerCall(middleware: RequestHandler, calls: number): Promise<number> {
  const exchanges = Array.from({ length: calls }, exchange);
  const started = process.cpuUsage();
  for (const { req, res } of exchanges) {
    await new Promise<void>((resolve, reject) => {
      const next: NextFunction = (error?: unknown) => (error ? reject(error) : resolve());
      void middleware(req, res, next);
    });
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}

const pass: RequestHandler = (_req, _res, next) => next();

/** Timed runs of each middleware, after one warm-up run. */
export const LIMITER_REPEATS = 5;

/** The median of `repeats` runs of each; a warm-up run first, so the JIT is not what is measured. */
export async function measureLimiterCost(
  calls: number,
  repeats = LIMITER_REPEATS,
): Promise<LimiterCostRow[]> {
  const ours = createRateLimits({ callsPerMinute: 1_000_000, handshakesPerMinute: 1_000_000 }).toolCall;
  const library = rateLimit({
    windowMs: 60_000,
    limit: 1_000_000,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => `ip:${ipKeyGenerator(req.ip ?? '')}`,
  });
  const candidates = { pass, ours, library };
  const runs: Record<keyof typeof candidates, number[]> = { pass: [], ours: [], library: [] };
  for (const middleware of Object.values(candidates)) await microsPerCall(middleware, calls);
  for (let repeat = 0; repeat < repeats; repeat++) {
    // In turn, so a drift of the machine falls on all three alike.
    for (const [name, middleware] of Object.entries(candidates))
      runs[name as keyof typeof candidates].push(await microsPerCall(middleware, calls));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const base = median(runs.pass);
  return [
    {
      id: 'ours',
      label: "this server's limits (window-counter.ts), as shipped",
      microsPerCall: Math.max(0, median(runs.ours) - base),
    },
    {
      id: 'express-rate-limit',
      label: 'express-rate-limit 8, draft-8 headers, memory store (what they replaced)',
      microsPerCall: Math.max(0, median(runs.library) - base),
    },
  ];
}
