/**
 * @module 05-resource-and-prompt/starter/facts-server
 * Exercise 05: offer the facts as a resource (data the client reads) and a prompt (a message
 * template the user picks). Edit this file; `pnpm exercise 05` checks it.
 * Models to read: `services/mcp-server/src/resources/cities.ts` and `src/prompts/plan-trip.ts`.
 */
import type { McpServer } from '@modelcontextprotocol/server';
// TODO(exercise 05): you will need some of these.
// import { completable, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
// import { z } from 'zod';
// import { CATEGORIES, FACTS } from '../../data/facts.js';

/**
 * TODO(exercise 05): register two resources with server.registerResource(...):
 * - `facts://all`: every fact as JSON `{ items: [{ category, fact }], count }`, mimeType `application/json`;
 * - the template `facts://{category}` (a `ResourceTemplate` whose `list` names one resource per category):
 *   that category's facts in the same shape, and a `ResourceNotFoundError` for an unknown category.
 */
export function registerFactResources(server: McpServer): void {
  void server;
}

/**
 * TODO(exercise 05): register the prompt `quiz_me { category }` with server.registerPrompt(...).
 * `category` is an enum of CATEGORIES with a description. The prompt returns two user messages: the
 * category's facts embedded as a `resource` block (uri `facts://<category>`), then a text asking the
 * model to quiz the user with three questions about them.
 */
export function registerQuizPrompt(server: McpServer): void {
  void server;
}
