/**
 * @module 01-random-fact/starter/get-random-fact
 * Exercise 01: `get_random_fact { category }`. Edit this file; `pnpm exercise 01` checks it.
 * The facts are in `../../data/facts.ts`; `services/mcp-server/src/tools/get-time.ts` is a model tool.
 */
import { defineTool } from '@mcp-workshop/mcp-server';
import { fail } from '@mcp-workshop/shared';
import { z } from 'zod';

// TODO(exercise 01): you will need these.
// import { CATEGORIES, FACTS } from '../../data/facts.js';

const input = z.object({
  // TODO(exercise 01): a free string lets the model guess. Make it an enum of CATEGORIES, and describe it.
  category: z.string(),
});

// TODO(exercise 01): describe what the tool returns: the category and the fact, each with .describe().
const output = z.object({});

export const getRandomFact = defineTool({
  name: 'get_random_fact',
  title: 'TODO',
  description: 'TODO(exercise 01): tell the model what this tool does and when to use it.',
  input,
  output,
  // TODO(exercise 01): is this tool read-only? Does it give the same answer twice?
  annotations: {},
  async run({ category }) {
    // TODO(exercise 01): pick a random fact of `category` and return it with ok({ ... }).
    return fail(`TODO(exercise 01): get_random_fact does not return a fact for "${category}" yet.`);
  },
});
