/**
 * @module pg-notify-payload
 * The wire format of one task notice on the Postgres NOTIFY channel, for `pg-notify-relay.ts`.
 * Small and bounded on purpose: NOTIFY payloads stop at 8000 bytes, and anyone who can
 * connect can NOTIFY, so whatever arrives is validated and anything else is dropped.
 *
 * A title is never sent: it is the one unbounded field, and every `updated` listener only needs
 * the id to name the resource that changed (clients re-read the task itself). Relayed tasks
 * therefore arrive with an empty title. The owner is sent (at most MAX_OWNER_LENGTH characters):
 * without it a replica could only tell every client, and ids are numbered per owner, so only the
 * owner and id together name a task. A notice without an owner is dropped.
 * `missed` carries no owner on purpose: notices were lost, so every list may have changed.
 * Version 2 added the owner; a version-1 notice (from a replica not yet upgraded) is dropped.
 * `runChanged` (an MCP task changed) came later within version 2: a replica that predates it drops
 * it as malformed, and its listen streams hear that task's status at their next poll.
 * Test: `pg-notify-relay.test.ts`.
 */
import { z } from 'zod';
import { isRunId } from './runs/limits.js';
import { MAX_OWNER_LENGTH } from './store.js';

/**
 * Characters. The largest notice we send is an owner of MAX_OWNER_LENGTH characters that JSON
 * escapes to six each (3,072, all ASCII) plus about 150 for the rest: under this, and so under
 * Postgres's 8000-byte limit. Nothing bigger is parsed.
 */
export const MAX_NOTICE_LENGTH = 4_096;

/** ISO 8601 timestamps as the stores write them; the bound keeps a forged notice small. */
const Timestamp = z.string().max(40);
const Owner = z.string().max(MAX_OWNER_LENGTH);

const NoticeSchema = z.discriminatedUnion('kind', [
  z.object({ v: z.literal(2), kind: z.literal('listChanged'), owner: Owner }),
  z.object({ v: z.literal(2), kind: z.literal('missed') }),
  z.object({
    v: z.literal(2),
    kind: z.literal('updated'),
    owner: Owner,
    id: z.number().int().nonnegative(),
    done: z.boolean(),
    createdAt: Timestamp,
    completedAt: Timestamp.nullable(),
  }),
  // An MCP task's change: its id only (22 URL-safe characters), never its status or result.
  z.object({ v: z.literal(2), kind: z.literal('runChanged'), owner: Owner, id: z.string().refine(isRunId) }),
]);

type WireNotice = z.infer<typeof NoticeSchema>;

/** One task event as it crosses replicas. */
export type StoreNotice = WireNotice extends infer N ? (N extends unknown ? Omit<N, 'v'> : never) : never;

export function encodeStoreNotice(notice: StoreNotice): string {
  return JSON.stringify({ v: 2, ...notice });
}

/** The notice in `payload`, or undefined when it is not one (too big, not JSON, wrong shape). */
export function decodeStoreNotice(payload: string | undefined): StoreNotice | undefined {
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
