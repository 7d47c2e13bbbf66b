/**
 * @module tools/files
 * Files and notes: a cloud drive (searched, read, shared, deleted, folders) beside a notes app
 * (created, searched, added to). `search_files` and `search_notes` both "find my document";
 * `create_note` and `append_to_note` both write a note.
 */
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { DESTROYS, defineTool, READS, stableId, stableNumber, WRITES } from '../fixture-kit.js';

const filePath = z
  .string()
  .min(1)
  .max(500)
  .describe('The file\'s path in the drive, e.g. "/Reports/q2-budget.xlsx".');

const searchFiles = defineTool({
  name: 'search_files',
  title: 'Search the drive',
  description:
    "Search the user's cloud drive for files (documents, spreadsheets, PDFs, photos) by name or content. " +
    'Returns matching paths with size and last change.',
  input: z.object({
    query: z.string().min(1).max(200).describe('Words in the file name or content, e.g. "budget 2026".'),
    type: z
      .enum(['any', 'document', 'spreadsheet', 'pdf', 'image'])
      .optional()
      .describe('Only files of this kind; default any.'),
  }),
  output: z.object({
    files: z.array(z.object({ path: z.string(), sizeKb: z.number().int(), modified: z.string() })),
  }),
  annotations: READS,
  async run({ query }) {
    const name = query.trim().toLowerCase().replaceAll(/\s+/g, '-');
    return ok({
      files: [
        { path: `/Documents/${name}.docx`, sizeKb: stableNumber(query, 12, 900), modified: '2026-05-28' },
      ],
    });
  },
});

const readFile = defineTool({
  name: 'read_file',
  title: 'Read a file',
  description:
    'Open a file from the cloud drive by its path and return its text content (documents, text, PDFs).',
  input: z.object({ path: filePath }),
  output: z.object({ path: z.string(), text: z.string() }),
  annotations: READS,
  async run({ path }) {
    return ok({ path, text: `Contents of ${path}.` });
  },
});

const shareFile = defineTool({
  name: 'share_file',
  title: 'Share a file',
  description:
    'Give other people access to a file or folder in the drive, as viewers or editors; they get a link by email. ' +
    'Returns the share link.',
  input: z.object({
    path: filePath,
    with: z
      .array(z.string().min(3).max(200))
      .min(1)
      .max(50)
      .describe('Email addresses or contact names to share with.'),
    role: z.enum(['viewer', 'editor']).describe('What they may do: view only, or edit.'),
  }),
  output: z.object({ path: z.string(), link: z.string(), sharedWith: z.array(z.string()) }),
  annotations: WRITES,
  async run({ path, with: people }) {
    return ok({ path, link: `https://drive.example.com/s/${stableId('share', path)}`, sharedWith: people });
  },
});

const deleteFile = defineTool({
  name: 'delete_file',
  title: 'Delete a file',
  description:
    'Delete a file or folder from the drive for good. It cannot be undone. Returns the deleted path.',
  input: z.object({ path: filePath }),
  output: z.object({ path: z.string(), deleted: z.boolean() }),
  annotations: DESTROYS,
  async run({ path }) {
    return ok({ path, deleted: true });
  },
});

const createFolder = defineTool({
  name: 'create_folder',
  title: 'Create a folder',
  description: "Make a new folder in the drive, inside an existing one. Returns the new folder's path.",
  input: z.object({
    name: z.string().min(1).max(200).describe('The new folder\'s name, e.g. "Tax 2026".'),
    parent: z.string().max(500).optional().describe("The folder to create it in; default the drive's top."),
  }),
  output: z.object({ path: z.string() }),
  annotations: WRITES,
  async run({ name, parent }) {
    return ok({ path: `${(parent ?? '').replace(/\/$/, '')}/${name}` });
  },
});

const createNote = defineTool({
  name: 'create_note',
  title: 'Create a note',
  description:
    'Write a new note in the notes app, with a title and text: ideas, lists, things to remember. ' +
    'To add to a note that exists, use append_to_note. Returns the note id.',
  input: z.object({
    title: z.string().min(1).max(200).describe('The note\'s title, e.g. "Gift ideas".'),
    text: z.string().max(10_000).describe("The note's text."),
  }),
  output: z.object({ id: z.string(), title: z.string() }),
  annotations: WRITES,
  async run({ title, text }) {
    return ok({ id: stableId('note', title, text), title });
  },
});

const searchNotes = defineTool({
  name: 'search_notes',
  title: 'Search notes',
  description:
    "Search the user's notes in the notes app by words in their title or text. Returns matching notes with id, title and a snippet.",
  input: z.object({ query: z.string().min(1).max(200).describe('Words to look for, e.g. "wifi password".') }),
  output: z.object({ notes: z.array(z.object({ id: z.string(), title: z.string(), snippet: z.string() })) }),
  annotations: READS,
  async run({ query }) {
    return ok({ notes: [{ id: stableId('note', query), title: query, snippet: `…${query}…` }] });
  },
});

const appendToNote = defineTool({
  name: 'append_to_note',
  title: 'Add to a note',
  description:
    'Add text to the end of an existing note, found by its title (e.g. add an item to the "Shopping" note). ' +
    'Returns the note id and its new length.',
  input: z.object({
    title: z.string().min(1).max(200).describe('The title of the note to add to, e.g. "Shopping".'),
    text: z.string().min(1).max(10_000).describe('The text to add.'),
  }),
  output: z.object({ id: z.string(), title: z.string(), length: z.number().int() }),
  annotations: WRITES,
  async run({ title, text }) {
    return ok({ id: stableId('note', title), title, length: stableNumber(title, 20, 400) + text.length });
  },
});

/** Files and notes, in the order tools/list shows them. */
export const fileTools = [
  searchFiles,
  readFile,
  shareFile,
  deleteFile,
  createFolder,
  createNote,
  searchNotes,
  appendToNote,
];
