/**
 * @module tasks/pg-notify-payload
 * The wire format of one task notice on the Postgres NOTIFY channel, for `pg-notify-relay.ts`.
 * Small and fixed-size on purpose: NOTIFY payloads stop at 8000 bytes, and anyone who can
 * connect can NOTIFY, so whatever arrives is validated and anything else is dropped.
 *
 * A title is never sent: it is the one unbounded field, and every `updated` listener only needs
 * the id to name the resource that changed (clients re-read the task itself). Relayed tasks
 * therefore arrive with an empty title.
 * Test: `pg-notify-relay.test.ts`.
 */
import { z } from 'zod';

/** Characters: far above a real notice (~120), far below Postgres's 8000-byte limit. Nothing bigger is parsed. */
export const MAX_NOTICE_LENGTH = 1_024;

/** ISO 8601 timestamps as the stores write them; the bound keeps a forged notice small. */
const Timestamp = z.string().max(40);

const NoticeSchema = z.discriminatedUnion('kind', [
  z.object({ v: z.literal(1), kind: z.literal('listChanged') }),
  z.object({
    v: z.literal(1),
    kind: z.literal('updated'),
    id: z.number().int().nonnegative(),
    done: z.boolean(),
    createdAt: Timestamp,
    completedAt: Timestamp.nullable(),
  }),
]);

type WireNotice = z.infer<typeof NoticeSchema>;

/** One task event as it crosses replicas. */
export type TaskNotice = WireNotice extends infer N ? (N extends unknown ? Omit<N, 'v'> : never) : never;

export function encodeTaskNotice(notice: TaskNotice): string {
  return JSON.stringify({ v: 1, ...notice });
}

/** The notice in `payload`, or undefined when it is not one (too big, not JSON, wrong shape). */
export function decodeTaskNotice(payload: string | undefined): TaskNotice | undefined {
  if (payload === undefined || payload.length > MAX_NOTICE_LENGTH) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const parsed = NoticeSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { v: _version, ...notice } = parsed.data;
  return notice;
}
