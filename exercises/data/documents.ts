/**
 * @module data/documents
 * The archive behind exercise 08: six short documents that are slow to fetch, as a remote archive
 * would be. Every fetch is written to `FETCH_LOG`, so the check can tell which documents a tool
 * fetched, when, and whether a cancel stopped a fetch in flight.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** How long one fetch takes: slow enough to stop a task between two documents, quick enough for a test. */
export const FETCH_DELAY_MS = 200;

export const DOCUMENT_IDS = ['harbour', 'lighthouse', 'orchard', 'market', 'observatory', 'ferry'] as const;

export type DocumentId = (typeof DOCUMENT_IDS)[number];

export interface ArchiveDocument {
  id: DocumentId;
  title: string;
  text: string;
}

const DOCUMENTS: Record<DocumentId, Omit<ArchiveDocument, 'id'>> = {
  harbour: {
    title: 'The harbour at dawn',
    text: 'Fishing boats come in before the gulls wake. The nets are hung to dry on the old stone wall.',
  },
  lighthouse: {
    title: 'Keeping the light',
    text: 'The keeper climbs one hundred and twelve steps each evening to wind the clockwork that turns the lens.',
  },
  orchard: {
    title: 'An orchard in October',
    text: 'Apples fall faster than anyone can pick them, and the wasps grow lazy on the sweet ones in the grass.',
  },
  market: {
    title: 'Saturday market',
    text: 'Cheese, honey, bread and wool share one square. By noon the bread is gone and the musicians arrive.',
  },
  observatory: {
    title: 'The hill observatory',
    text: 'On clear nights the dome opens with a groan, and visitors queue to see the rings of Saturn.',
  },
  ferry: {
    title: 'The last ferry',
    text: 'It leaves at ten past eleven, whether or not the band has finished playing on the pier.',
  },
};

/** One line per fetch event, in order: a fetch `started`, then `finished` or was `aborted`. */
export interface FetchEvent {
  id: DocumentId;
  event: 'started' | 'finished' | 'aborted';
  at: number;
}

export const FETCH_LOG: FetchEvent[] = [];

/** Empties the log; the check calls it before each test. */
export function clearFetchLog(): void {
  FETCH_LOG.length = 0;
}

/**
 * Fetches one document, in `FETCH_DELAY_MS`. With a `signal`, an abort ends the fetch at once with
 * the signal's reason (an `AbortError` unless the aborter gave another).
 */
export async function fetchDocument(id: DocumentId, signal?: AbortSignal): Promise<ArchiveDocument> {
  FETCH_LOG.push({ id, event: 'started', at: Date.now() });
  try {
    await sleep(FETCH_DELAY_MS, undefined, signal ? { signal } : {});
  } catch (error) {
    FETCH_LOG.push({ id, event: 'aborted', at: Date.now() });
    throw error;
  }
  FETCH_LOG.push({ id, event: 'finished', at: Date.now() });
  return { id, ...DOCUMENTS[id] };
}
