import { afterEach, describe, expect, it } from 'vitest';
import type { Connected } from '../test-support/in-memory.js';
import { connectFixtures, connectWithFixtures } from './test-support/connect.js';

/** Every name the conformance suite calls; see conformance/index.ts. */
const FIXTURE_TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_error_handling',
  'test_tool_with_logging',
  'test_tool_with_progress',
  'test_reconnection',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'json_schema_2020_12_tool',
];
const FIXTURE_RESOURCES = ['test://static-text', 'test://static-binary', 'test://watched-resource'];
const FIXTURE_TEMPLATES = ['test://template/{id}/data'];
const FIXTURE_PROMPTS = [
  'test_simple_prompt',
  'test_prompt_with_arguments',
  'test_prompt_with_embedded_resource',
  'test_prompt_with_image',
];

/** Everything the server lists; a list whose capability is not declared counts as empty. */
async function listAll({ client }: Connected) {
  const caps = client.getServerCapabilities() ?? {};
  return {
    tools: (await client.listTools()).tools.map((tool) => tool.name),
    resources: caps.resources ? (await client.listResources()).resources.map((r) => r.uri) : [],
    templates: caps.resources
      ? (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)
      : [],
    prompts: caps.prompts ? (await client.listPrompts()).prompts.map((prompt) => prompt.name) : [],
  };
}

describe('registerConformanceFixtures', () => {
  let connected: Connected | undefined;
  afterEach(async () => {
    await connected?.close();
    connected = undefined;
  });

  it('adds no fixture to a server built without { conformance: true }', async () => {
    connected = await connectFixtures();
    const lists = await listAll(connected);
    expect(lists.tools.filter((name) => name.startsWith('test_') || FIXTURE_TOOLS.includes(name))).toEqual(
      [],
    );
    expect([...lists.resources, ...lists.templates].filter((uri) => uri.startsWith('test://'))).toEqual([]);
    expect(lists.prompts.filter((name) => name.startsWith('test_'))).toEqual([]);
  });

  it('adds every tool, resource, template and prompt the suite calls with { conformance: true }', async () => {
    connected = await connectWithFixtures();
    const lists = await listAll(connected);
    expect(lists.tools).toEqual(expect.arrayContaining(FIXTURE_TOOLS));
    expect(lists.resources).toEqual(expect.arrayContaining(FIXTURE_RESOURCES));
    expect(lists.templates).toEqual(expect.arrayContaining(FIXTURE_TEMPLATES));
    expect(lists.prompts).toEqual(expect.arrayContaining(FIXTURE_PROMPTS));
  });

  it('gives every tool and prompt the non-empty description the suite requires', async () => {
    connected = await connectWithFixtures();
    const { tools } = await connected.client.listTools();
    for (const tool of tools) expect(tool.description, tool.name).toBeTruthy();
    const { prompts } = await connected.client.listPrompts();
    for (const prompt of prompts) expect(prompt.description, prompt.name).toBeTruthy();
  });

  it('declares the logging and completions capabilities the suite uses', async () => {
    connected = await connectWithFixtures();
    expect(connected.client.getServerCapabilities()).toMatchObject({ logging: {}, completions: {} });
  });
});
