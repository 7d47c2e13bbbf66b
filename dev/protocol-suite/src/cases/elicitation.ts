/**
 * @module protocol-suite/cases/elicitation
 * `delete_task` asks the user to confirm. Legacy revisions (2025-06-18+) do it with an
 * `elicitation/create` request on the call's SSE stream, answered by POSTing a JSON-RPC response;
 * 2026-07-28 does it with an `input_required` result and a retry (MRTR). Addendum §1.7, row 13.
 */
import { expect } from 'vitest';
import type { ProtocolClient } from '../client.js';
import { expectResultFor, fillForm, type ProtocolCase } from '../harness.js';
import { elicitationCapability, LEGACY, legacyFrom, MODERN } from '../revisions.js';
import { type JsonRpcMessage, messagesOf, REQUEST_TIMEOUT_MS } from '../sse.js';

type Obj = Record<string, unknown>;

async function addTask(client: ProtocolClient, title: string): Promise<number> {
  const result = expectResultFor(
    client.rev,
    await client.request('tools/call', { name: 'add_task', arguments: { title } }),
  );
  const id = ((result.structuredContent as Obj | undefined)?.task as Obj | undefined)?.id;
  expect(typeof id).toBe('number');
  return id as number;
}

async function taskExists(client: ProtocolClient, id: number): Promise<boolean> {
  const reply = await client.request('tools/call', { name: 'list_tasks', arguments: { status: 'all' } });
  const items = ((expectResultFor(client.rev, reply).structuredContent as Obj).items ?? []) as Obj[];
  return items.some((task) => task.id === id);
}

/**
 * Calls delete_task on a session that declared elicitation, answers the server's
 * elicitation/create with `action`, and returns the elicitation request and the call's response.
 */
async function deleteWithAnswer(
  client: ProtocolClient,
  id: number,
  action: 'accept' | 'decline',
): Promise<{ elicit: JsonRpcMessage | undefined; response: JsonRpcMessage | undefined }> {
  const open = await client.stream('tools/call', { name: 'delete_task', arguments: { id } });
  try {
    expect(open.status).toBe(200);
    const asked = messagesOf(
      await open.live.until((m) => m.method === 'elicitation/create', REQUEST_TIMEOUT_MS),
    );
    const elicit = asked.find((m) => m.method === 'elicitation/create');
    if (!elicit) return { elicit, response: asked.find((m) => m.id === open.id) };
    const result =
      action === 'accept' ? { action, content: fillForm(elicit.params?.requestedSchema as Obj) } : { action };
    const answer = await client.send({ jsonrpc: '2.0', id: elicit.id, result });
    expect(answer.status).toBe(202);
    const rest = messagesOf(await open.live.until((m) => m.id === open.id, REQUEST_TIMEOUT_MS));
    return { elicit, response: rest.find((m) => m.id === open.id) };
  } finally {
    await open.live.close();
  }
}

export const elicitationCases: ProtocolCase[] = [
  {
    item: 'L4',
    source: 'extra',
    title: 'delete_task asks for confirmation with elicitation/create (form) on its stream; accept → deleted',
    revisions: legacyFrom('2025-06-18'),
    async run(ctx) {
      const client = await ctx.connect(elicitationCapability(ctx.rev));
      const id = await addTask(client, 'protocol-suite: elicit accept');
      const { elicit, response } = await deleteWithAnswer(client, id, 'accept');
      expect(elicit, 'no elicitation/create before deleting').toBeDefined();
      expect(typeof elicit?.params?.message).toBe('string');
      expect((elicit?.params?.requestedSchema as Obj | undefined)?.type).toBe('object');
      if (ctx.rev >= '2025-11-25' && elicit?.params && 'mode' in elicit.params)
        expect(elicit.params.mode).toBe('form');
      expect(response?.result?.isError ?? false).toBe(false);
      expect(await taskExists(client, id)).toBe(false);
    },
  },
  {
    item: 'L4',
    source: 'extra',
    title: 'declining the delete_task confirmation keeps the task',
    revisions: legacyFrom('2025-06-18'),
    async run(ctx) {
      const client = await ctx.connect(elicitationCapability(ctx.rev));
      const id = await addTask(client, 'protocol-suite: elicit decline');
      const { elicit, response } = await deleteWithAnswer(client, id, 'decline');
      expect(elicit, 'no elicitation/create before deleting').toBeDefined();
      expect(response?.result, 'the call was not answered').toBeDefined();
      expect(await taskExists(client, id)).toBe(true);
    },
  },
  {
    item: 'L4',
    source: 'extra',
    title:
      'a client without the elicitation capability is never sent elicitation/create; the call is answered',
    revisions: LEGACY,
    async run(ctx) {
      const id = await addTask(ctx.client, 'protocol-suite: no elicitation');
      const open = await ctx.client.stream('tools/call', { name: 'delete_task', arguments: { id } });
      try {
        const messages = messagesOf(await open.live.until((m) => m.id === open.id, REQUEST_TIMEOUT_MS));
        expect(messages.map((m) => m.method)).not.toContain('elicitation/create');
        expect(messages.find((m) => m.id === open.id)?.result).toBeDefined();
      } finally {
        await open.live.close();
      }
    },
  },
  {
    item: '§1.7',
    source: 'A#13',
    title: 'delete_task with elicitation declared → input_required; the retry with inputResponses completes',
    revisions: MODERN,
    async run(ctx) {
      const client = await ctx.connect({ elicitation: { form: {} } });
      const id = await addTask(client, 'protocol-suite: mrtr');
      const params = { name: 'delete_task', arguments: { id } };
      const first = expectResultFor(ctx.rev, await client.request('tools/call', params));
      expect(first.resultType).toBe('input_required');
      expect(typeof first.requestState).toBe('string');
      const requests = first.inputRequests as Record<string, Obj>;
      expect(Object.keys(requests).length).toBeGreaterThan(0);
      const inputResponses: Obj = {};
      for (const [key, request] of Object.entries(requests)) {
        expect(request.method).toBe('elicitation/create');
        const schema = (request.params as Obj | undefined)?.requestedSchema as Obj | undefined;
        inputResponses[key] = { action: 'accept', content: fillForm(schema) };
      }
      const retry = await client.request('tools/call', {
        ...params,
        inputResponses,
        requestState: first.requestState,
      });
      const done = expectResultFor(ctx.rev, retry);
      expect(done.resultType).toBe('complete');
      expect(done.isError ?? false).toBe(false);
      expect(await taskExists(client, id)).toBe(false);
    },
  },
  {
    item: '§1.7',
    source: 'A#13',
    title:
      'delete_task without the elicitation capability → 400 -32021, or a complete result (never input_required)',
    revisions: MODERN,
    async run(ctx) {
      const id = await addTask(ctx.client, 'protocol-suite: mrtr without capability');
      const reply = await ctx.client.request('tools/call', { name: 'delete_task', arguments: { id } });
      if (reply.error) {
        expect(reply.status).toBe(400);
        expect(reply.error.code).toBe(-32021);
      } else {
        expect(expectResultFor(ctx.rev, reply).resultType).toBe('complete');
      }
      await ctx.expectAlive();
    },
  },
];
