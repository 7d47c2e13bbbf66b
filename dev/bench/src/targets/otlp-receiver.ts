/**
 * @module targets/otlp-receiver
 * The telemetry section's OTLP/HTTP receiver (test-infra's real one, which decodes every batch), run
 * in its own process: decoding a batch of hundreds of spans in the bench's process would stall the
 * load generator's event loop and show up as latency of the server under test. It keeps only a
 * tally, so a long run holds no spans, and hands it over on the IPC message "take".
 * Partner file: ../telemetry.ts, which starts it and reads the tallies.
 */
import { type OtlpReceiver, startOtlpReceiver } from '@mcp-workshop/test-infra';

/** What arrived since the last "take". */
export interface OtlpTally {
  /** POSTs per path, e.g. `{ '/v1/traces': 12, '/v1/metrics': 3 }`. */
  requests: Record<string, number>;
  /** POSTs answered with anything but 200: bodies the receiver could not take. */
  rejected: number;
  spans: number;
  /** Spans per name, e.g. `{ 'tools/call get_time': 1000, 'INSERT tasks': 10 }`. */
  spansByName: Record<string, number>;
  /** Metric data points, all kinds. */
  metricPoints: number;
}

export type ReceiverMessage = { type: 'listening'; endpoint: string } | { type: 'tally'; tally: OtlpTally };

/** Spans are folded into the tally and dropped this often, so memory stays flat under any load. */
const FOLD_INTERVAL_MS = 200;

function emptyTally(): OtlpTally {
  return { requests: {}, rejected: 0, spans: 0, spansByName: {}, metricPoints: 0 };
}

/** Moves what the receiver holds into `tally` and forgets it; synchronous, so nothing is lost between. */
function fold(receiver: OtlpReceiver, tally: OtlpTally): void {
  for (const request of receiver.requests) {
    tally.requests[request.path] = (tally.requests[request.path] ?? 0) + 1;
    if (request.status !== 200) tally.rejected++;
  }
  for (const span of receiver.spans) {
    tally.spans++;
    tally.spansByName[span.name] = (tally.spansByName[span.name] ?? 0) + 1;
  }
  for (const metric of receiver.metrics) tally.metricPoints += metric.points.length;
  receiver.clear();
}

async function main(): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) throw new Error('otlp-receiver runs as a child of the bench, with an IPC channel');
  const receiver = await startOtlpReceiver();
  let tally = emptyTally();
  const timer = setInterval(() => fold(receiver, tally), FOLD_INTERVAL_MS);
  process.on('message', (message) => {
    if (message !== 'take') return;
    fold(receiver, tally);
    send({ type: 'tally', tally } satisfies ReceiverMessage);
    tally = emptyTally();
  });
  // The bench gone (even killed), nothing is left to report to.
  process.once('disconnect', () => {
    clearInterval(timer);
    void receiver.close().then(() => process.exit(0));
  });
  send({ type: 'listening', endpoint: receiver.endpoint } satisfies ReceiverMessage);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
