/**
 * `read_skill` (`read-skill.ts`) and the skills the hub lists (`mcp/skills.ts`), with every part
 * real except the model's answers: a small server built here on the official SDK's
 * `SkillsExtension` serves one skill over HTTP, the real hub connects to it, and the scripted
 * OpenAI-compatible server plays the model. Last, the real workshop server as a process.
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import {
  memorySkillFiles,
  type SkillCatalog,
  SkillsExtension,
} from '@modelcontextprotocol/server/ext/skills';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatHeader } from './format.js';
import { toStrictSchema } from './llm/strict-schema.js';
import type { QualifiedMcpHub } from './mcp/hub.js';
import { type ServedFetch, serveFetch } from './mcp/test-support/serve-fetch.js';
import { READ_SKILL_FUNCTION, skillFunction } from './read-skill.js';
import { connectHub, createTestAgent, scriptedModel, startWorkshop } from './test-support/harness.js';
import {
  type ScriptedOpenAI,
  type ScriptStep,
  startScriptedOpenAI,
  toolMessages,
} from './test-support/scripted-openai.js';
import type { ServerSkill } from './types.js';

const SKILL_MD = `---
name: pack-a-bag
description: Pack a bag for a trip from the forecast.
---

# Pack a bag

Check the forecast, then follow references/list.md.
`;
const LIST_MD = '# The list\n\n- an umbrella if it rains\n';
const SKILL_URI = 'skill://pack-a-bag/SKILL.md';

let files: Record<string, string>;
let catalog: SkillCatalog;
let server: ServedFetch;
let hub: QualifiedMcpHub;
let openai: ScriptedOpenAI | undefined;

beforeAll(async () => {
  files = { 'pack-a-bag/SKILL.md': SKILL_MD, 'pack-a-bag/references/list.md': LIST_MD };
  catalog = await SkillsExtension.load(memorySkillFiles(files), { onWarning: () => {} });
  const handler = createMcpHandler(() => {
    const mcp = new McpServer({ name: 'skills-test', version: '0.0.1' });
    mcp.registerTool('get_forecast', { description: 'Get the forecast for a city.' }, async () => ({
      content: [{ type: 'text', text: 'rain' }],
    }));
    catalog.attach(mcp);
    return mcp;
  });
  server = await serveFetch((request) => handler.fetch(request));
  hub = await connectHub([{ name: 'trips', url: server.url }]);
});
afterAll(async () => {
  await hub?.close();
  await server?.close();
});
afterEach(async () => {
  await openai?.close();
  openai = undefined;
});

/** Runs one question with the model's steps scripted; returns the turn and what the model was sent. */
async function ask(...script: ScriptStep[]) {
  openai = await startScriptedOpenAI({ script });
  const agent = createTestAgent({ hub, model: scriptedModel(openai.baseUrl) });
  const result = await agent.ask('What should I pack for Bergen?');
  return { result, bodies: openai.bodies() };
}

const readSkill = (args: Record<string, unknown>) => ({
  toolCalls: [{ name: READ_SKILL_FUNCTION, arguments: args }],
});

describe('the skills the hub lists', () => {
  it('come from a server that declares the extension, with the server info', () => {
    expect(hub.skills()).toEqual([
      {
        server: 'trips',
        name: 'pack-a-bag',
        description: 'Pack a bag for a trip from the forecast.',
        uri: SKILL_URI,
        files: ['SKILL.md', 'references/list.md'],
      },
    ]);
    const [info] = hub.servers();
    expect(info?.skills).toEqual([expect.objectContaining({ name: 'pack-a-bag', uri: SKILL_URI })]);
    expect(formatHeader({ label: 'm', api: 'chat', baseUrl: 'b' } as never, hub.servers())).toContain(
      'skills: trips → pack-a-bag',
    );
  });
});

describe('read_skill', () => {
  it('is offered beside the tools, naming each skill, and answers with SKILL.md, then a file it names', async () => {
    const { result, bodies } = await ask(
      readSkill({ skill: 'pack-a-bag', file: null }),
      readSkill({ skill: 'pack-a-bag', file: 'references/list.md' }),
      { text: 'Take an umbrella.' },
    );
    const offered = bodies[0]?.tools?.find((tool) => tool.function.name === READ_SKILL_FUNCTION)?.function;
    expect(offered?.description).toContain('- pack-a-bag: Pack a bag for a trip from the forecast.');
    expect(offered?.parameters).toMatchObject({
      properties: {
        skill: { enum: ['pack-a-bag'] },
        file: { anyOf: [{ enum: ['references/list.md'] }, {}] },
      },
    });
    expect(offered?.strict).toBe(true);
    // What OpenAI's strict mode accepts, as the agent converts MCP tools for it (llm/strict-schema.ts).
    expect(toStrictSchema(offered?.parameters ?? {}).strict).toBe(true);
    expect(bodies[0]?.tools?.map((tool) => tool.function.name)).toContain('get_forecast');

    expect(result.answer).toBe('Take an umbrella.');
    expect(result.toolCalls.map(({ server, tool, isError }) => ({ server, tool, isError }))).toEqual([
      { server: 'trips', tool: SKILL_URI, isError: false },
      { server: 'trips', tool: 'skill://pack-a-bag/references/list.md', isError: false },
    ]);
    const sent = toolMessages(bodies[2] as NonNullable<(typeof bodies)[number]>).map(
      (message) => message.content,
    );
    expect(sent).toEqual([SKILL_MD, LIST_MD]);
  });

  it('tells the model which skills exist when it names another', async () => {
    const { result } = await ask(readSkill({ skill: 'fly-a-kite', file: null }), { text: 'Sorry.' });
    expect(result.toolCalls[0]?.problem).toMatchObject({ kind: 'invalid_arguments' });
    expect(result.toolCalls[0]?.sentToModel).toContain(
      'There is no skill \\"fly-a-kite\\". Use one of: pack-a-bag.',
    );
  });

  it('refuses a file the skill does not list, such as a path out of it, and names the files it has', async () => {
    const { result } = await ask(readSkill({ skill: 'pack-a-bag', file: '../../etc/passwd' }), {
      text: 'No.',
    });
    expect(result.toolCalls[0]?.problem).toMatchObject({ kind: 'invalid_arguments' });
    expect(result.toolCalls[0]?.sentToModel).toContain('Its files: SKILL.md, references/list.md.');
  });

  it('passes on an error, never new text, for a file that changed since it was listed', async () => {
    files['pack-a-bag/references/list.md'] = '# The list\n\n- nothing at all\n';
    try {
      const { result } = await ask(readSkill({ skill: 'pack-a-bag', file: 'references/list.md' }), {
        text: 'Hm.',
      });
      expect(result.toolCalls[0]?.isError).toBe(true);
      expect(result.toolCalls[0]?.sentToModel).not.toContain('nothing at all');
    } finally {
      files['pack-a-bag/references/list.md'] = LIST_MD;
    }
  });
});

describe('skillFunction', () => {
  const skill = (
    server: string,
    name: string,
    description = `About ${name}.`,
    files = ['SKILL.md'],
  ): ServerSkill => ({
    server,
    name,
    description,
    uri: `skill://${name}/SKILL.md`,
    files,
  });

  it('is not offered without skills, nor when a tool already has its name', () => {
    expect(skillFunction([], () => false)).toBeUndefined();
    expect(skillFunction([skill('a', 'one')], (name) => name === READ_SKILL_FUNCTION)).toBeUndefined();
  });

  it('tells apart two servers with a skill of the same name', () => {
    const fn = skillFunction([skill('a', 'one'), skill('b', 'one'), skill('b', 'two')], () => false);
    expect(fn?.spec.parameters).toMatchObject({ properties: { skill: { enum: ['a/one', 'b/one', 'two'] } } });
  });

  it('offers null or one of the files the skills list besides SKILL.md, so no path can be made up', () => {
    const one = skill('a', 'one', 'One.', ['SKILL.md', 'references/b.md', 'references/a.md']);
    const two = skill('a', 'two', 'Two.', ['SKILL.md', 'references/a.md']);
    expect(skillFunction([one, two], () => false)?.spec.parameters).toMatchObject({
      properties: {
        file: { anyOf: [{ type: 'string', enum: ['references/a.md', 'references/b.md'] }, { type: 'null' }] },
      },
    });
    expect(
      skillFunction(
        [two].map((each) => ({ ...each, files: ['SKILL.md'] })),
        () => false,
      )?.spec.parameters,
    ).toMatchObject({
      properties: { file: { type: 'null' } },
    });
  });

  it("keeps its description within OpenAI's limit, and still names every skill in the enum", () => {
    const many = Array.from({ length: 40 }, (_, index) => skill('a', `skill-${index}`, 'x'.repeat(100)));
    const fn = skillFunction(many, () => false);
    expect(fn?.spec.description.length).toBeLessThanOrEqual(1024);
    expect(fn?.spec.description).toMatch(/more: see the skill parameter\)$/);
    expect(fn?.spec.parameters).toMatchObject({
      properties: { skill: { enum: many.map((each) => each.name) } },
    });
  });
});

describe('read_skill against the workshop server', () => {
  it("lists the workshop's skills and reads one, verified", async () => {
    const workshop = await startWorkshop();
    const workshopHub = await connectHub([{ name: 'workshop', url: workshop.mcpUrl }]);
    try {
      const names = workshopHub.skills().map((each) => each.name);
      expect(names).toEqual(expect.arrayContaining(['add-a-tool', 'manage-tasks']));
      const read = await workshopHub.readSkill('workshop', 'skill://add-a-tool/SKILL.md', undefined);
      expect(read.text).toMatch(/pnpm new-tool/);
    } finally {
      await workshopHub.close();
      await workshop.close();
    }
  });
});
