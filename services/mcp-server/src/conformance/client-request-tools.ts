/**
 * @module conformance/client-request-tools
 * Fixture tools that ask the client something mid-call: sampling, and three elicitation forms
 * (plain, SEP-1034 defaults, SEP-1330 enum variants). They only work on a 2025-era session with
 * an SSE channel; a thrown SDK error becomes an `isError` result, which is what the suite expects
 * from a client without the capability.
 */
import type { CallToolResult, ElicitRequestFormParams, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** A sampling answer is short in the suite; 100 tokens is what its scenario text asks for. */
const SAMPLING_MAX_TOKENS = 100;

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** SEP-1034: one field per primitive type, each with a default the client may prefill. */
const DEFAULTS_SCHEMA: RequestedSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
};

/** SEP-1330: the five enum shapes, untitled and titled, single and multi select, plus legacy enumNames. */
const ENUMS_SCHEMA: RequestedSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
  required: [],
};

export function registerClientRequestTools(server: McpServer): void {
  server.registerTool(
    'test_sampling',
    {
      description: 'Conformance fixture: asks the client to sample a completion for the prompt.',
      inputSchema: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
    },
    async ({ prompt }, ctx) => {
      const response = await ctx.mcpReq.requestSampling({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: SAMPLING_MAX_TOKENS,
      });
      const blocks = Array.isArray(response.content) ? response.content : [response.content];
      const reply = blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
      return text(`LLM response: ${reply}`);
    },
  );

  server.registerTool(
    'test_elicitation',
    {
      description: 'Conformance fixture: asks the user for a username and an email address.',
      inputSchema: z.object({ message: z.string().describe('The message to show the user') }),
    },
    async ({ message }, ctx) => {
      const result = await ctx.mcpReq.elicitInput({
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
    },
  );

  const elicitForm = (name: string, description: string, message: string, schema: RequestedSchema) =>
    server.registerTool(name, { description }, async (ctx) => {
      const result = await ctx.mcpReq.elicitInput({ message, requestedSchema: schema });
      return text(
        `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`,
      );
    });
  elicitForm(
    'test_elicitation_sep1034_defaults',
    'Conformance fixture (SEP-1034): elicits a form whose fields all carry defaults.',
    'Please review and update the form fields with defaults',
    DEFAULTS_SCHEMA,
  );
  elicitForm(
    'test_elicitation_sep1330_enums',
    'Conformance fixture (SEP-1330): elicits a form with every enum variant.',
    'Please select options from the enum fields',
    ENUMS_SCHEMA,
  );
}
