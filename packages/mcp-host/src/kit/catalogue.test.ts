import { ok } from '@mcp-workshop/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSilentLogger } from '../logger.js';
import { loadRunEnv } from '../run/env.js';
import { prepareCatalogue } from '../run/prepare.js';
import { defineCatalogue, isCatalogue, taskWorksOf } from './catalogue.js';
import { defineTool } from './define-tool.js';

const logger = createSilentLogger();

const tool = (name: string, answer: string, task?: 'optional') =>
  defineTool<unknown, z.ZodObject, z.ZodObject>({
    name,
    title: name,
    description: `Answers ${answer}.`,
    input: z.object({}),
    output: z.object({ answer: z.string() }),
    annotations: { readOnlyHint: true },
    ...(task ? { task } : {}),
    run: async () => ok({ answer }),
  } as never);

const catalogueOf = (...tools: ReturnType<typeof tool>[]) =>
  defineCatalogue({ name: 'fixture', version: '1.0.0', services: () => ({ deps: {} }), tools });

describe('defineCatalogue', () => {
  it('returns a value isCatalogue knows, and refuses a tool listed twice, naming it', () => {
    expect(isCatalogue(catalogueOf(tool('a', '1')))).toBe(true);
    expect(isCatalogue({ tools: [] })).toBe(false);
    expect(() => catalogueOf(tool('a', '1'), tool('a', '2'))).toThrow(/tool a twice/);
  });

  it('hands the task runtime the work of the tools that declare task, and of extra items', () => {
    const catalogue = defineCatalogue({
      name: 'fixture',
      version: '1.0.0',
      services: () => ({ deps: {} }),
      tools: [tool('plain', '1'), tool('slow', '2', 'optional')],
      taskWorks: () => [['extra', async () => ({ content: [] })] as const],
    });
    const works = taskWorksOf(catalogue, { deps: {}, logger, runs: undefined });
    expect([...works.keys()]).toEqual(['slow', 'extra']);
  });
});

describe('prepareCatalogue', () => {
  const listed = async (build: () => import('@modelcontextprotocol/server').McpServer) => {
    const { connectInProcess } = await import('../in-process.js');
    const connection = await connectInProcess(build());
    try {
      return (await connection.client.listTools()).tools.map((entry) => entry.name);
    } finally {
      await connection.close();
    }
  };

  it('serves a reloaded catalogue only once the reload is committed', async () => {
    const prepared = prepareCatalogue(catalogueOf(tool('first', '1')), { env: loadRunEnv({}, {}), logger });
    const next = prepared.reload(catalogueOf(tool('second', '2')));
    expect(await listed(next.buildServer)).toEqual(['second']);
    // Not committed yet (the host refused it, say): new instances still serve the old one.
    expect(await listed(prepared.buildServer)).toEqual(['first']);
    next.commit();
    expect(await listed(prepared.buildServer)).toEqual(['second']);
    expect([...prepared.policy().tools.keys()]).toEqual(['second']);
    await prepared.close();
  });
});
