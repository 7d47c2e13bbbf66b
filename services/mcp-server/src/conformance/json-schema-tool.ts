/**
 * @module conformance/json-schema-tool
 * `json_schema_2020_12_tool` (SEP-1613): a tool whose `inputSchema` is a raw JSON Schema 2020-12
 * document. `fromJsonSchema` makes the SDK advertise the document unchanged, so `$schema`, `$defs`
 * and `additionalProperties` reach `tools/list` as written (zod would rebuild them).
 */
import { fromJsonSchema, type McpServer } from '@modelcontextprotocol/server';

/** Exactly the document the suite's `json-schema-2020-12` scenario compares against. */
export const JSON_SCHEMA_2020_12_INPUT = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
  },
  additionalProperties: false,
} as const;

interface Input {
  name?: string;
  address?: { street?: string; city?: string };
}

export function registerJsonSchemaTool(server: McpServer): void {
  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'Conformance fixture (SEP-1613): its inputSchema uses JSON Schema 2020-12 keywords.',
      inputSchema: fromJsonSchema<Input>(JSON_SCHEMA_2020_12_INPUT),
    },
    async (args) => ({ content: [{ type: 'text', text: `Received: ${JSON.stringify(args)}` }] }),
  );
}
