/**
 * The fixture catalogue as a client sees it: exactly 60 tools, each described for the model down to
 * its parameters (a blank description would make the discovery measurement about nothing), and
 * handlers that answer the same arguments with the same result.
 */
import { connectInProcess, type InProcessConnection } from '@mcp-workshop/mcp-host/in-process';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { loadRunEnv, prepareCatalogue } from '@mcp-workshop/mcp-host/run';
import type { Tool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fixtureCatalogue from './catalogue.js';

/** Long enough to say what a tool does and when to use it, as the eval's lint asks. */
const MIN_DESCRIPTION_CHARS = 40;

describe('the eval fixture catalogue', () => {
  let connection: InProcessConnection;
  const tools: Tool[] = [];

  beforeAll(async () => {
    const prepared = prepareCatalogue(fixtureCatalogue, {
      env: loadRunEnv(fixtureCatalogue.env, {}),
      logger: createSilentLogger(),
    });
    connection = await connectInProcess(prepared.buildServer());
    let cursor: string | undefined;
    do {
      const page = await connection.client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  });

  afterAll(async () => {
    await connection?.close();
  });

  it('lists exactly 60 tools, each with a unique name', () => {
    expect(tools).toHaveLength(60);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(60);
  });

  it('gives every tool a description the model can choose by', () => {
    const short = tools
      .filter((tool) => (tool.description ?? '').trim().length < MIN_DESCRIPTION_CHARS)
      .map((tool) => tool.name);
    expect(short, 'tools whose description is missing or too short').toEqual([]);
  });

  it('describes every input parameter', () => {
    const undescribed = tools.flatMap((tool) =>
      Object.entries(tool.inputSchema.properties ?? {})
        .filter(([, schema]) => typeof (schema as { description?: unknown }).description !== 'string')
        .map(([name]) => `${tool.name}.${name}`),
    );
    expect(undescribed).toEqual([]);
  });

  it('answers the same arguments with the same result, computed from them', async () => {
    const call = (name: string, args: Record<string, unknown>) =>
      connection.client.callTool({ name, arguments: args });
    const event = { title: 'Dentist', start: '2026-06-12T09:30', end: '2026-06-12T10:30' };
    const first = await call('create_event', event);
    expect(first.isError).toBeFalsy();
    expect(await call('create_event', event)).toEqual(first);
    expect(first.structuredContent).toMatchObject({
      title: 'Dentist',
      id: expect.stringMatching(/^evt_[0-9a-f]{8}$/),
    });
    const other = await call('create_event', { ...event, title: 'Lunch' });
    expect(other.structuredContent).not.toEqual(first.structuredContent);

    const same = await call('convert_currency', { amount: 250, from: 'USD', to: 'usd' });
    expect(same.structuredContent).toEqual({ rate: 1, result: 250, from: 'USD', to: 'usd' });
    const unknown = await call('convert_currency', { amount: 5, from: 'XYZ', to: 'EUR' });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toMatch(/Unknown currency \\"XYZ\\"/);
  });

  it('refuses arguments that break a schema with an error the model can read', async () => {
    const result = await connection.client.callTool({ name: 'set_thermostat', arguments: { celsius: 90 } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/celsius/);
  });
});
