/**
 * @module http/event-store
 * A small in-memory `EventStore` for one 2025-era session. With it, the SDK transport numbers
 * every SSE event, sends the priming event that 2025-11-25 asks for, and replays what a client
 * missed when it reconnects with `Last-Event-ID`. Bounded, so a busy session cannot grow without
 * limit, and dropped with the session.
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** A reconnecting client needs the last few events of a stream, not its whole history. */
export const MAX_EVENTS_PER_STREAM = 64;
/** Streams remembered per session; the least recently written go first. */
export const MAX_STREAMS_PER_SESSION = 32;

interface StoredEvent {
  id: EventId;
  message: JSONRPCMessage;
}

export class SessionEventStore implements EventStore {
  readonly #streams = new Map<StreamId, StoredEvent[]>();
  #sequence = 0;

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    // The id names its stream, so a replay never mixes streams (spec: ids SHOULD encode the stream).
    const id = `${encodeURIComponent(streamId)}.${++this.#sequence}`;
    const events = this.#streams.get(streamId) ?? [];
    this.#streams.delete(streamId);
    this.#streams.set(streamId, events);
    events.push({ id, message });
    if (events.length > MAX_EVENTS_PER_STREAM) events.shift();
    while (this.#streams.size > MAX_STREAMS_PER_SESSION) {
      const oldest = this.#streams.keys().next().value;
      if (oldest === undefined) break;
      this.#streams.delete(oldest);
    }
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const streamId = streamOf(eventId);
    return streamId !== undefined && this.#streams.has(streamId) ? streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const streamId = streamOf(lastEventId);
    const events = streamId === undefined ? undefined : this.#streams.get(streamId);
    if (streamId === undefined || !events)
      throw new Error(`Unknown Last-Event-ID ${JSON.stringify(lastEventId)}`);
    const after = sequenceOf(lastEventId);
    for (const event of events) {
      if (sequenceOf(event.id) > after) await send(event.id, event.message);
    }
    return streamId;
  }
}

function streamOf(eventId: EventId): StreamId | undefined {
  const dot = eventId.lastIndexOf('.');
  if (dot <= 0) return undefined;
  try {
    return decodeURIComponent(eventId.slice(0, dot));
  } catch {
    return undefined;
  }
}

function sequenceOf(eventId: EventId): number {
  const value = Number(eventId.slice(eventId.lastIndexOf('.') + 1));
  return Number.isSafeInteger(value) ? value : Number.POSITIVE_INFINITY;
}
