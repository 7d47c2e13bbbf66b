/**
 * @module .solutions/08-task-tool/count-words
 * A solution to exercise 08: `count_words` runs as an MCP Task for a client that declares the
 * extension, one recorded step per document, and stops a fetch in flight when the task is cancelled.
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
  // A task for a client that declares io.modelcontextprotocol/tasks; the answer at once for any other.
  task: 'optional',
  async run({ ids }, { signal, step, progress }) {
    const wanted = ids ?? [...DOCUMENT_IDS];
    const documents: Array<z.infer<typeof counted>> = [];
    for (const [index, id] of wanted.entries()) {
      // The position, not the id, names the step: `ids` may name a document twice.
      const entry = await step(`document-${index + 1}`, async () => {
        const document = await fetchDocument(id, signal);
        return { id, title: document.title, words: wordsIn(document.text) };
      });
      documents.push(entry);
      await progress(index + 1, wanted.length, `Counted ${index + 1} of ${wanted.length}: ${entry.title}`);
    }
    const totalWords = documents.reduce((sum, entry) => sum + entry.words, 0);
    return ok(
      { documents, totalWords },
      { summary: `${totalWords} words in ${documents.length} document(s).` },
    );
  },
});
