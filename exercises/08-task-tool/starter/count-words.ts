/**
 * @module 08-task-tool/starter/count-words
 * Exercise 08: `count_words { ids? }` counts the words of documents from a slow archive. It works,
 * but every call waits for the whole count. Make it an MCP Task. Edit this file; `pnpm exercise 08`
 * checks it. `services/mcp-server/src/tools/generate-report.ts` is a task tool to compare with.
 */
import { defineTool } from '@mcp-workshop/mcp-server';
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { DOCUMENT_IDS, fetchDocument } from '../../data/documents.js';

const input = z.object({
  ids: z
    .array(z.enum(DOCUMENT_IDS))
    .min(1)
    .max(DOCUMENT_IDS.length)
    .optional()
    .describe(`The documents to count, in this order. Leave it out for all ${DOCUMENT_IDS.length}.`),
});

const counted = z.object({
  id: z.enum(DOCUMENT_IDS).describe('The document.'),
  title: z.string().describe('Its title.'),
  words: z.number().int().describe('How many words its text has.'),
});

const output = z.object({
  documents: z.array(counted).describe('One entry per document, in the order asked.'),
  totalWords: z.number().int().describe('The words of all of them together.'),
});

/** Words are what whitespace separates. */
function wordsIn(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

export const countWords = defineTool({
  name: 'count_words',
  title: 'Count words in archive documents',
  description:
    'Count the words of documents in the archive (all of them unless ids names some). The archive is ' +
    'slow, about a fifth of a second per document. Returns each document with its word count, and the total.',
  input,
  output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  // TODO(exercise 08): let a client that supports MCP Tasks get a task instead of waiting: task: 'optional'.
  async run({ ids }, { progress }) {
    const wanted = ids ?? [...DOCUMENT_IDS];
    const documents: Array<z.infer<typeof counted>> = [];
    for (const [index, id] of wanted.entries()) {
      // TODO(exercise 08): make each document one step, `step(key, work)` from the context, so a task
      // that resumes after a restart gets the documents it already counted back instead of fetching
      // them again. The key must be unique in the call and the same on every attempt.
      // TODO(exercise 08): pass the context's `signal` to fetchDocument, so a cancel stops the fetch in flight.
      const document = await fetchDocument(id);
      const entry = { id, title: document.title, words: wordsIn(document.text) };
      documents.push(entry);
      // As a task, this becomes the task's statusMessage.
      await progress(index + 1, wanted.length, `Counted ${index + 1} of ${wanted.length}: ${entry.title}`);
    }
    const totalWords = documents.reduce((sum, entry) => sum + entry.words, 0);
    return ok(
      { documents, totalWords },
      { summary: `${totalWords} words in ${documents.length} document(s).` },
    );
  },
});
