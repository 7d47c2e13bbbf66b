/**
 * No crosstalk under pooling: server instances are lent from a pool to one request after another,
 * so a caller's identity must come with each request, never stay behind on an instance. Many
 * signed-in users call at once, in every mode (2025 sessions, 2025 stateless, 2026-07-28), and
 * each must only ever see their own tasks: in tool results, resources, resource lists, prompts and
 * completions. This is the leak class of CVE-2026-25536 (one server or transport reused across
 * clients), shown absent for the pool; pooling.test.ts covers colliding JSON-RPC ids.
 */

import { discoverIssuer } from '@mcp-workshop/mcp-host';
import {
  ERAS,
  type Era,
  EraClient,
  resultIn,
  startTestIssuer,
  type TestIssuer,
} from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';
import { TASKS_READ, TASKS_WRITE } from '../test-support/workshop.js';

const RESOURCE = 'http://127.0.0.1:3000/mcp';
/** Enough users to have several requests in flight on pooled instances at once, bounded for CI. */
const USERS = 12;
/** Rounds of reads per user and mode; every round sends one request of each kind. */
const ROUNDS = 4;
const TASKS_PER_USER = 2;

let issuer: TestIssuer;
let sessionful: TestServer;
let stateless: TestServer;
const tokens: string[] = [];

const userName = (index: number) => `user-${String(index).padStart(2, '0')}`;
const titleOf = (index: number, n: number) => `crosstalk ${userName(index)} task ${n}`;

/** A user's client in one mode, on the server that serves that mode. */
function caller(
  mode: Era,
  token: string,
): { send(method: string, params: Record<string, unknown>): Promise<string> } {
  const client = new EraClient(mode, mode === '2025 stateless' ? stateless.mcpUrl : sessionful.mcpUrl, token);
  return {
    async send(method, params) {
      const { status, text } = await client.send(method, params);
      if (status !== 200) throw new Error(`${mode} ${method}: HTTP ${status} ${text}`);
      return text;
    },
  };
}

beforeAll(async () => {
  issuer = await startTestIssuer();
  const metadata = await discoverIssuer(issuer.issuer);
  const options = {
    auth: { issuer: metadata, resource: RESOURCE },
    rateLimits: { callsPerMinute: 0, handshakesPerMinute: 0 },
  };
  [sessionful, stateless] = await Promise.all([
    startTestServer(options),
    startTestServer({ ...options, stateless: true }),
  ]);
  for (let index = 0; index < USERS; index++) {
    tokens.push(
      await issuer.token({ subject: userName(index), resource: RESOURCE, scopes: [TASKS_READ, TASKS_WRITE] }),
    );
  }
}, 60_000);

afterAll(async () => {
  await Promise.all([sessionful?.close(), stateless?.close(), issuer?.close()]);
});

describe('many users at once on pooled server instances', () => {
  it('each user, in every mode, sees only their own tasks everywhere tasks show', async () => {
    // Every user adds their tasks in both databases, all at once.
    await Promise.all(
      tokens.flatMap((token, index) =>
        (['2025 session', '2025 stateless'] as const).map(async (mode) => {
          const client = caller(mode, token);
          for (let n = 1; n <= TASKS_PER_USER; n++) {
            await client.send('tools/call', { name: 'add_task', arguments: { title: titleOf(index, n) } });
          }
        }),
      ),
    );

    const leaks: string[] = [];
    const missing: string[] = [];
    const reads: Array<[string, Record<string, unknown>]> = [
      ['tools/call', { name: 'list_tasks', arguments: {} }],
      ['resources/read', { uri: 'tasks://all' }],
      ['resources/list', {}],
      ['prompts/get', { name: 'review_tasks', arguments: {} }],
      ['tools/call', { name: 'generate_report', arguments: { topic: 'tasks', steps: 1, delayMs: 0 } }],
    ];
    const curlReads = tokens.map(async (token, index) => {
      for (let round = 0; round < ROUNDS; round++) {
        for (const server of [sessionful, stateless]) {
          const response = await fetch(`${server.baseUrl}/tools/list_tasks`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: '{}',
          });
          const text = await response.text();
          for (let other = 0; other < USERS; other++) {
            if (other !== index && text.includes(userName(other)))
              leaks.push(`${userName(index)} curl path saw ${userName(other)}`);
          }
          if (!text.includes(titleOf(index, 1))) missing.push(`${userName(index)} curl path`);
        }
      }
    });
    await Promise.all([
      ...curlReads,
      ...tokens.flatMap((token, index) =>
        ERAS.map(async (mode) => {
          const client = caller(mode, token);
          for (let round = 0; round < ROUNDS; round++) {
            for (const [method, params] of reads) {
              const text = await client.send(method, params);
              for (let other = 0; other < USERS; other++) {
                if (other !== index && text.includes(userName(other)))
                  leaks.push(`${userName(index)} ${mode} ${method} saw ${userName(other)}`);
              }
              const listsTitles = method !== 'tools/call' || params.name === 'list_tasks';
              if (listsTitles && !text.includes(titleOf(index, 1)))
                missing.push(`${userName(index)} ${mode} ${method}`);
            }
          }
        }),
      ),
    ]);
    expect(leaks).toEqual([]);
    expect(missing).toEqual([]);
  }, 120_000);

  it("completes only the caller's own task ids, and a write on another user's id finds no task", async () => {
    const [alice = '', bob = ''] = tokens;
    for (const mode of ERAS) {
      const asAlice = caller(mode, alice);
      const asBob = caller(mode, bob);
      const idsOf = async (client: typeof asAlice) => {
        const listed = resultIn(await client.send('tools/call', { name: 'list_tasks', arguments: {} }));
        const items =
          (listed?.structuredContent as { items: Array<{ id: number }> } | undefined)?.items ?? [];
        return items.map((task) => String(task.id));
      };
      // Each owner numbers their tasks from 1, so Alice's and Bob's ids overlap: the probe is an id
      // only Alice has, which she makes by adding past Bob's count (bounded by it).
      const bobIds = await idsOf(asBob);
      let aliceIds = await idsOf(asAlice);
      expect(aliceIds.length, mode).toBeGreaterThan(0);
      for (let added = 0; added <= bobIds.length && aliceIds.every((id) => bobIds.includes(id)); added++) {
        await asAlice.send('tools/call', { name: 'add_task', arguments: { title: `${userName(0)} extra` } });
        aliceIds = await idsOf(asAlice);
      }
      const completed = resultIn(
        await asBob.send('completion/complete', {
          ref: { type: 'ref/resource', uri: 'tasks://{id}' },
          argument: { name: 'id', value: '' },
        }),
      );
      const offered = (completed?.completion as { values: string[] } | undefined)?.values ?? [];
      expect(offered.length, mode).toBeGreaterThan(0);
      expect([...offered].sort(), mode).toEqual([...bobIds].sort());
      const target = Number(aliceIds.find((id) => !bobIds.includes(id)));
      expect(Number.isSafeInteger(target), mode).toBe(true);
      for (const name of ['complete_task', 'delete_task']) {
        const answer = resultIn(await asBob.send('tools/call', { name, arguments: { id: target } }));
        expect(answer?.isError, `${mode} ${name}`).toBe(true);
        expect(JSON.stringify(answer), `${mode} ${name}`).not.toContain(userName(0));
      }
      const read = await asBob.send('resources/read', { uri: `tasks://${target}` });
      expect(read, mode).not.toContain(userName(0));
      // Alice's task is untouched.
      const mine = resultIn(await asAlice.send('resources/read', { uri: `tasks://${target}` }));
      const contents = (mine?.contents as Array<{ text: string }> | undefined)?.[0]?.text ?? '{}';
      expect(JSON.parse(contents), mode).toMatchObject({ id: target, done: false });
    }
  }, 60_000);
});
