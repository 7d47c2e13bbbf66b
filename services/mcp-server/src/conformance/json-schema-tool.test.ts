import { afterEach, describe, expect, it } from 'vitest';
import type { Connected } from '../test-support/in-memory.js';
import { JSON_SCHEMA_2020_12_INPUT } from './json-schema-tool.js';
import { connectWithFixtures } from './test-support/connect.js';

describe('json_schema_2020_12_tool', () => {
  let connected: Connected | undefined;
  afterEach(async () => connected?.close());

  it('is listed with its 2020-12 inputSchema unchanged, through tools/list pagination', async () => {
    connected = await connectWithFixtures();
    const { tools } = await connected.client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'json_schema_2020_12_tool');
    expect(tool?.inputSchema).toEqual(JSON_SCHEMA_2020_12_INPUT);
  });

  it('validates calls against that schema (additionalProperties: false)', async () => {
    connected = await connectWithFixtures();
    const call = (args: Record<string, unknown>) =>
      connected?.client.callTool({ name: 'json_schema_2020_12_tool', arguments: args });
    expect((await call({ name: 'Ada', address: { city: 'Oslo' } }))?.isError).toBeFalsy();
    expect((await call({ name: 'Ada', extra: 1 }))?.isError).toBe(true);
  });
});
