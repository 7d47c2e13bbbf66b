/**
 * @module .solutions/01-random-fact/get-random-fact
 * A solution to exercise 01: an enum input, an output schema, and `ok()` data that matches it.
 */
import { defineTool } from '@mcp-workshop/mcp-server';
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { CATEGORIES, FACTS } from '../../data/facts.js';

const input = z.object({
  category: z.enum(CATEGORIES).describe(`The kind of fact: one of ${CATEGORIES.join(', ')}.`),
});

const output = z.object({
  category: z.enum(CATEGORIES).describe('The category the fact comes from.'),
  fact: z.string().describe('One fact, a complete sentence in English.'),
});

export const getRandomFact = defineTool({
  name: 'get_random_fact',
  title: 'Random fact',
  description:
    `Get one random fact from a category (${CATEGORIES.join(', ')}). ` +
    'Use it when the user asks for a fun fact or trivia. Returns { category, fact }.',
  input,
  output,
  // Read-only, but not idempotent: a second call may pick another fact.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ category }) {
    const facts = FACTS[category];
    const fact = facts[Math.floor(Math.random() * facts.length)] ?? facts[0] ?? '';
    return ok({ category, fact });
  },
});
