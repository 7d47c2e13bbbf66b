/**
 * Who a token names, over real HTTP with tokens from a test issuer that signs any subject: an
 * identity is never cut or blank, and is well-formed Unicode. A subject too long for the store, an
 * empty one, one with control characters (C0 or C1) or a lone surrogate is refused with 401
 * `invalid_token` saying why; subjects that differ only near the end keep apart; and a session is pinned to the very owner its data is filed under, plus the
 * client id, so a token of another client cannot use or close it.
 */
import { discoverIssuer, MAX_IDENTITY_LENGTH } from '@mcp-workshop/mcp-host';
import {
  openRawSession,
  postInitialize,
  postOnSession,
  readMessages,
  startTestIssuer,
  type TestIssuer,
} from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';
import { TASKS_READ, TASKS_WRITE } from '../test-support/workshop.js';

const RESOURCE = 'http://127.0.0.1:3000/mcp';
const SCOPES = [TASKS_READ, TASKS_WRITE];

let issuer: TestIssuer;
let server: TestServer;

beforeAll(async () => {
  issuer = await startTestIssuer();
  server = await startTestServer({
    auth: { issuer: await discoverIssuer(issuer.issuer), resource: RESOURCE },
  });
}, 30_000);

afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function tokenFor(subject: string, clientId = 'test-client'): Promise<string> {
  return issuer.token({ subject, resource: RESOURCE, scopes: SCOPES, clientId });
}

/** A curl-path answer: the tool's result on 200, an OAuth error body on 401. */
interface Answer {
  isError?: boolean;
  structuredContent?: { task: { id: number } };
  error?: string;
  error_description?: string;
}

/** Calls a tool on the curl path with `token`; returns the HTTP status and the tool's answer. */
async function callTool(token: string, name: string, args: Record<string, unknown> = {}) {
  const response = await fetch(`${server.baseUrl}/tools/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(token) },
    body: JSON.stringify(args),
  });
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    body: (await response.json()) as Answer,
  };
}

describe('a subject is never cut', () => {
  const prefix = 'p'.repeat(3_000);

  it('refuses a subject longer than the store can hold with 401 invalid_token that says why', async () => {
    const alice = await callTool(await tokenFor(`${prefix}-alice`), 'add_task', { title: 'alice only' });
    expect(alice.status).toBe(401);
    expect(alice.body).toMatchObject({
      error: 'invalid_token',
      error_description: `The token's sub claim is 3006 characters long; this server accepts at most ${MAX_IDENTITY_LENGTH}.`,
    });
    expect(alice.challenge).toMatch(/error="invalid_token"/);
    const bob = await callTool(await tokenFor(`${prefix}-bob`), 'list_tasks');
    expect(bob.status).toBe(401);
  });

  it(`keeps two ${MAX_IDENTITY_LENGTH}-character subjects that differ in their last character apart`, async () => {
    const long = 'q'.repeat(MAX_IDENTITY_LENGTH - 1);
    const alice = await tokenFor(`${long}a`);
    const bob = await tokenFor(`${long}b`);
    const added = await callTool(alice, 'add_task', { title: 'long alice task' });
    expect(added.status).toBe(200);
    expect(added.body.isError).not.toBe(true);
    const theirs = await callTool(bob, 'list_tasks');
    expect(theirs.status).toBe(200);
    expect(JSON.stringify(theirs.body)).not.toContain('long alice task');
    const id = added.body.structuredContent?.task.id;
    for (const name of ['complete_task', 'delete_task']) {
      const attempt = await callTool(bob, name, { id });
      expect(attempt.body.isError).toBe(true);
    }
    const mine = await callTool(alice, 'list_tasks');
    expect(JSON.stringify(mine.body)).toContain('long alice task');
  });
});

describe('a subject is never blank', () => {
  it('refuses an empty sub with 401, so two clients without a subject cannot meet on one session', async () => {
    const clientA = await tokenFor('', 'client-a');
    const response = await postInitialize(server.mcpUrl, bearer(clientA));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      error: 'invalid_token',
      error_description: "The token's sub claim is empty: it must name who the token is for.",
    });
  });

  it('refuses a subject with control characters', async () => {
    for (const subject of ['ali\u0000ce', 'bob\n', '\u001b[31mred']) {
      const answer = await callTool(await tokenFor(subject), 'list_tasks');
      expect(answer.status).toBe(401);
      expect(answer.body.error_description).toBe("The token's sub claim contains control characters.");
    }
  });
});

describe('an identity is well-formed Unicode', () => {
  // A lone surrogate has no UTF-8 form: the Postgres driver writes each as U+FFFD, so these two
  // subjects would be one owner there, reading each other's tasks. Neither is ever let in.
  const LONE = ['u-\ud800', 'u-\udbff'];

  it('refuses the two lone-surrogate subjects that Postgres would merge, each with 401 invalid_token saying why', async () => {
    for (const subject of LONE) {
      const answer = await callTool(await tokenFor(subject), 'add_task', { title: `task of ${subject}` });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({
        error: 'invalid_token',
        error_description: "The token's sub claim is not well-formed Unicode (a lone surrogate).",
      });
      expect(answer.challenge).toContain(
        'error_description="The token\'s sub claim is not well-formed Unicode (a lone surrogate)."',
      );
    }
  });

  it('refuses a client_id with a lone surrogate too', async () => {
    const answer = await callTool(await tokenFor('dora', 'client-\udfff'), 'list_tasks');
    expect(answer.status).toBe(401);
    expect(answer.body.error_description).toBe(
      "The token's client_id claim is not well-formed Unicode (a lone surrogate).",
    );
  });

  it('refuses C1 control characters (U+0080 to U+009F) as it refuses C0 ones', async () => {
    for (const subject of ['ali\u0085ce', '\u009b31mred', 'bob\u0080']) {
      const answer = await callTool(await tokenFor(subject), 'list_tasks');
      expect(answer.status).toBe(401);
      expect(answer.body.error_description).toBe("The token's sub claim contains control characters.");
    }
  });

  it('keeps a subject with a whole surrogate pair (an emoji), apart from one spelt with U+FFFD', async () => {
    const emoji = await tokenFor('u-\u{1F600}');
    const replacement = await tokenFor('u-\ufffd');
    const added = await callTool(emoji, 'add_task', { title: 'the smiling task' });
    expect(added.status).toBe(200);
    expect(added.body.isError).not.toBe(true);
    const theirs = await callTool(replacement, 'list_tasks');
    expect(theirs.status).toBe(200);
    expect(JSON.stringify(theirs.body)).not.toContain('the smiling task');
    expect(JSON.stringify((await callTool(emoji, 'list_tasks')).body)).toContain('the smiling task');
  });
});

describe('a session is pinned to its owner and client', () => {
  it('refuses the same subject from another client id with 403, and keeps the session for its own', async () => {
    const mine = await tokenFor('carol', 'client-a');
    const otherClient = await tokenFor('carol', 'client-b');
    const sessionId = await openRawSession(server.mcpUrl, '2025-11-25', bearer(mine));
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const refused = await postOnSession(server.mcpUrl, sessionId, list, bearer(otherClient));
    expect(refused.status).toBe(403);
    await refused.text();
    const closing = await fetch(server.mcpUrl, {
      method: 'DELETE',
      headers: { ...bearer(otherClient), 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(closing.status).toBe(403);
    await closing.text();
    const still = await postOnSession(server.mcpUrl, sessionId, list, bearer(mine));
    expect(still.status).toBe(200);
    const [answer] = await readMessages(still);
    expect(answer).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
  });
});
