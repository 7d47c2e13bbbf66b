/**
 * @module .solutions/05-resource-and-prompt/facts-server
 * A solution to exercise 05: a fixed resource, a resource template with its own list, and a prompt
 * that embeds the resource it is about, so the client need not fetch it separately.
 */
import {
  type McpServer,
  type ReadResourceResult,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CATEGORIES, type Category, FACTS } from '../../data/facts.js';

const JSON_MIME = 'application/json';

function factItems(categories: readonly Category[]) {
  return categories.flatMap((category) => FACTS[category].map((fact) => ({ category, fact })));
}

/** One `application/json` item: what a read returns, and what the prompt embeds. */
function jsonItem(uri: string, categories: readonly Category[]) {
  const items = factItems(categories);
  return { uri, mimeType: JSON_MIME, text: JSON.stringify({ items, count: items.length }, null, 2) };
}

function jsonContents(uri: string, categories: readonly Category[]): ReadResourceResult {
  return { contents: [jsonItem(uri, categories)] };
}

function isCategory(value: unknown): value is Category {
  return typeof value === 'string' && (CATEGORIES as readonly string[]).includes(value);
}

export function registerFactResources(server: McpServer): void {
  server.registerResource(
    'facts',
    'facts://all',
    {
      title: 'All facts',
      description: 'Every fact, as JSON { items: [{ category, fact }], count }.',
      mimeType: JSON_MIME,
    },
    (uri) => jsonContents(uri.href, CATEGORIES),
  );

  server.registerResource(
    'facts-by-category',
    new ResourceTemplate('facts://{category}', {
      list: () => ({
        resources: CATEGORIES.map((category) => ({
          uri: `facts://${category}`,
          name: `facts-${category}`,
          title: `Facts about ${category}`,
          mimeType: JSON_MIME,
        })),
      }),
    }),
    {
      title: 'Facts of one category',
      description: `The facts of one category (${CATEGORIES.join(', ')}), as JSON { items, count }.`,
      mimeType: JSON_MIME,
    },
    (uri, { category }) => {
      if (!isCategory(category)) {
        throw new ResourceNotFoundError(
          uri.href,
          `No facts at ${uri.href}: use one of ${CATEGORIES.join(', ')}.`,
        );
      }
      return jsonContents(uri.href, [category]);
    },
  );
}

export function registerQuizPrompt(server: McpServer): void {
  server.registerPrompt(
    'quiz_me',
    {
      title: 'Quiz me',
      description: 'A short quiz about the facts of one category; the facts are embedded in the prompt.',
      argsSchema: z.object({
        category: z.enum(CATEGORIES).describe(`What to be quizzed on: one of ${CATEGORIES.join(', ')}.`),
      }),
    },
    ({ category }) => ({
      description: `A quiz about ${category}.`,
      messages: [
        {
          role: 'user',
          content: { type: 'resource', resource: jsonItem(`facts://${category}`, [category]) },
        },
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Quiz me about ${category}: ask three questions, one at a time, using only the facts above. Tell me after each answer whether I was right.`,
          },
        },
      ],
    }),
  );
}
