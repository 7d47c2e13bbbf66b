/**
 * The authorization matrix, generated from the scope policy (each tool's and prompt's own
 * `scopes`, and `tasks:read` for anything under `tasks:`): every tool, prompt, resource and
 * completion × the three ways of serving (a 2025 session, 2025 stateless, 2026-07-28) × the scope
 * sets (none, read, write, both) × spellings of each name and URI (case, whitespace and control
 * characters at both ends and inside, percent-encoding, extra slashes, a fragment, a query).
 *
 * It asserts that allow and deny match the policy, that a spelling the SDK would clean up into a
 * task URI is refused like the plain one, and that no answer to a token without `tasks:read`, nor
 * to another user, carries a task. Tokens come from the workshop's authorization server.
 */
import {
  AGENT_CLIENT,
  type AuthServerProcess,
  READER_CLIENT,
  startAuthServerProcess,
} from '@mcp-workshop/auth-server/process';
import { discoverIssuer } from '@mcp-workshop/mcp-host';
import { ERAS, type Era, EraClient, resultIn, TASKS_CAPABILITIES } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';
import { prompts, TASKS_READ, TASKS_WRITE, tools } from '../test-support/workshop.js';

const RESOURCE = 'http://127.0.0.1:3000/mcp';
/** A title nobody else writes: finding it in an answer means task data got through. */
const SECRET = 'matrix-secret-7f3a';
/** An id no task has: complete_task and delete_task then change nothing, whoever is allowed. */
const NO_SUCH_ID = 987_654;

const SCOPE_SETS = {
  none: [],
  read: [TASKS_READ],
  write: [TASKS_WRITE],
  both: [TASKS_READ, TASKS_WRITE],
} as const satisfies Record<string, readonly string[]>;
type ScopeSet = keyof typeof SCOPE_SETS;

/** Arguments that make a call do its real work; a tool without a sample gets `{}` (and still shows allow or deny). */
const TOOL_ARGS: Record<string, Record<string, unknown>> = {
  get_weather: { location: 'Oslo' },
  list_cities: {},
  calculate: { expression: '6*7' },
  get_time: { timezone: 'Europe/Oslo' },
  list_tasks: {},
  add_task: { title: 'added by the matrix' },
  complete_task: { id: NO_SUCH_ID },
  delete_task: { id: NO_SUCH_ID },
  generate_report: { topic: 'tasks', steps: 1, delayMs: 0 },
};
const PROMPT_ARGS: Record<string, Record<string, string>> = {
  explain_task: { id: '1' },
  review_tasks: {},
  plan_trip: { city: 'Oslo' },
};

/** Ways to spell a tool or prompt name that must never reach more than the exact name does. */
function nameSpellings(name: string): string[] {
  const code = name.charCodeAt(0).toString(16).padStart(2, '0');
  return [
    name.toUpperCase(),
    ` ${name}`,
    `${name} `,
    `\t${name}`,
    `${name}\n`,
    `\u0000${name}`,
    `${name}\u0000`,
    `${name.slice(0, 2)}\t${name.slice(2)}`,
    `${name.slice(0, 2)}\u0001${name.slice(2)}`,
    `%${code}${name.slice(1)}`,
    `${name}/`,
  ];
}

/** Ways to spell a URI, the red team's among them. */
function uriSpellings(uri: string): string[] {
  const [scheme = '', rest = ''] = uri.split('://');
  return [
    uri.toUpperCase(),
    `${scheme.toUpperCase()}://${rest}`,
    ` ${uri}`,
    `${uri} `,
    `\t${uri}`,
    `${uri}\n`,
    `\u0000${uri}`,
    `\u0001${uri}`,
    `${uri}\u001f`,
    `${scheme.slice(0, 2)}\t${scheme.slice(2)}://${rest}`,
    `${scheme.slice(0, 4)}\n${scheme.slice(4)}://${rest}`,
    `${scheme.slice(0, 3)}\r${scheme.slice(3)}://${rest}`,
    `${scheme}:/\t/${rest}`,
    `%${scheme.charCodeAt(0).toString(16)}${scheme.slice(1)}://${rest}`,
    `${scheme}://%${rest.charCodeAt(0).toString(16)}${rest.slice(1)}`,
    `${scheme}:///${rest}`,
    `${scheme}:////${rest}`,
    `${scheme}:/${rest}`,
    `${uri}#fragment`,
    `${uri}?query=1`,
    `${uri}/`,
  ];
}

/** An independent, blunt reading of "names tasks": every control character and space gone, lowercased. */
function looksLikeTasks(uri: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  const bare = /[\u0000-\u0020\u007f]/g;
  return uri.replace(bare, '').toLowerCase().startsWith('tasks:');
}

interface Probe {
  /** What the row is about, for the test name. */
  target: string;
  method: string;
  params: Record<string, unknown>;
  /** The spelling is the one the server registered. */
  exact: boolean;
  /**
   * Scopes the policy says this needs: for an exact spelling, allow exactly when they are held;
   * for a URI the SDK would clean up into a task URI, refuse without them, like the plain one.
   */
  needs: readonly string[];
  /**
   * A name spelled otherwise names no tool or prompt: without the scopes it must be refused or
   * unknown, and never answered with a success.
   */
  unknownName?: boolean;
}

function toolProbes(): Probe[] {
  return tools.flatMap((tool) =>
    [tool.name, ...nameSpellings(tool.name)].map((name) => ({
      target: `tool ${tool.name}`,
      method: 'tools/call',
      params: { name, arguments: TOOL_ARGS[tool.name] ?? {} },
      exact: name === tool.name,
      needs: tool.scopes,
      unknownName: name !== tool.name,
    })),
  );
}

function promptProbes(): Probe[] {
  return prompts.flatMap((prompt) =>
    [prompt.name, ...nameSpellings(prompt.name)].flatMap((name) => [
      {
        target: `prompt ${prompt.name}`,
        method: 'prompts/get',
        params: { name, arguments: PROMPT_ARGS[prompt.name] ?? {} },
        exact: name === prompt.name,
        needs: prompt.scopes,
        unknownName: name !== prompt.name,
      },
      {
        target: `completion of prompt ${prompt.name}`,
        method: 'completion/complete',
        params: {
          ref: { type: 'ref/prompt', name },
          argument: { name: Object.keys(PROMPT_ARGS[prompt.name] ?? {})[0] ?? 'id', value: '' },
        },
        exact: name === prompt.name,
        needs: prompt.scopes,
        unknownName: name !== prompt.name,
      },
    ]),
  );
}

function resourceProbes(taskId: number): Probe[] {
  const uris = ['tasks://all', `tasks://${taskId}`, 'cities://all'];
  const reads = uris.flatMap((uri) =>
    [uri, ...uriSpellings(uri)].map((spelling) => ({
      target: `resource ${uri}`,
      method: 'resources/read',
      params: { uri: spelling },
      exact: spelling === uri,
      needs: looksLikeTasks(spelling) ? [TASKS_READ] : [],
    })),
  );
  const template = 'tasks://{id}';
  const completions = [template, ...uriSpellings(template)].map((spelling) => ({
    target: `completion of ${template}`,
    method: 'completion/complete',
    params: { ref: { type: 'ref/resource', uri: spelling }, argument: { name: 'id', value: '' } },
    exact: spelling === template,
    needs: looksLikeTasks(spelling) ? [TASKS_READ] : [],
  }));
  const lists = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'].map(
    (method) => ({
      target: method,
      method,
      params: {},
      exact: true,
      needs: [],
    }),
  );
  return [...reads, ...completions, ...lists];
}

type Answer = Awaited<ReturnType<EraClient['send']>>;

let auth: AuthServerProcess;
let sessionful: TestServer;
let stateless: TestServer;
const tokens = {} as Record<ScopeSet | 'otherUser', string>;
let secretId = 0;
const clients = new Map<string, EraClient>();

/** One client per era and token, so a 2025 session is opened once per token. */
function send(era: Era, token: string, method: string, params: Record<string, unknown>): Promise<Answer> {
  const key = `${era} ${token}`;
  let client = clients.get(key);
  if (!client) {
    client = new EraClient(era, era === '2025 stateless' ? stateless.mcpUrl : sessionful.mcpUrl, token);
    clients.set(key, client);
  }
  return client.send(method, params);
}

/** A 200 with a result that is not an isError result. */
function succeeded(answer: Answer): boolean {
  const result = resultIn(answer.text);
  return answer.status === 200 && result !== undefined && result.isError !== true;
}

beforeAll(async () => {
  auth = await startAuthServerProcess({ resources: [RESOURCE] });
  const issuer = await discoverIssuer(auth.issuer);
  const noLimits = { callsPerMinute: 0, handshakesPerMinute: 0 };
  [sessionful, stateless] = await Promise.all([
    startTestServer({ auth: { issuer, resource: RESOURCE }, rateLimits: noLimits }),
    startTestServer({ stateless: true, auth: { issuer, resource: RESOURCE }, rateLimits: noLimits }),
  ]);
  tokens.none = await auth.token(AGENT_CLIENT, RESOURCE);
  tokens.read = await auth.token(AGENT_CLIENT, RESOURCE, TASKS_READ);
  tokens.write = await auth.token(AGENT_CLIENT, RESOURCE, TASKS_WRITE);
  tokens.both = await auth.token(AGENT_CLIENT, RESOURCE, `${TASKS_READ} ${TASKS_WRITE}`);
  tokens.otherUser = await auth.token(READER_CLIENT, RESOURCE, TASKS_READ);
  // The same secret task, with the same id, in both servers' fresh databases.
  for (const era of ['2025 session', '2025 stateless'] as const) {
    const answer = await send(era, tokens.both, 'tools/call', {
      name: 'add_task',
      arguments: { title: SECRET },
    });
    const added = resultIn(answer.text);
    const task = (added?.structuredContent as { task?: { id: number } } | undefined)?.task;
    if (!task) throw new Error(`add_task answered no task in ${era}`);
    secretId = task.id;
  }
}, 60_000);

afterAll(async () => {
  await Promise.all([sessionful?.close(), stateless?.close(), auth?.close()]);
});

describe('the authorization matrix', () => {
  for (const era of ERAS) {
    it(`${era}: allow and deny follow the policy for every target, spelling and scope set, and no denied answer carries a task`, async () => {
      const probes = [...toolProbes(), ...promptProbes(), ...resourceProbes(secretId)];
      const failures: string[] = [];
      const check = (ok: boolean, what: string) => {
        if (!ok) failures.push(what);
      };
      for (const [set, granted] of Object.entries(SCOPE_SETS) as Array<[ScopeSet, readonly string[]]>) {
        for (const probe of probes) {
          const answer = await send(era, tokens[set], probe.method, probe.params);
          const lacking = probe.needs.filter((scope) => !granted.includes(scope));
          const label = `${set} ${probe.target} ${JSON.stringify(probe.params)} → ${answer.status}`;
          if (lacking.length > 0 && probe.unknownName) {
            check(answer.status === 403 || !succeeded(answer), `should be refused or unknown: ${label}`);
          } else if (lacking.length > 0) {
            check(answer.status === 403, `should be refused: ${label}`);
          } else if (probe.exact) {
            check(answer.status === 200, `should be allowed: ${label}`);
          }
          if (!granted.includes(TASKS_READ)) check(!answer.text.includes(SECRET), `leaks a task: ${label}`);
          if (answer.status === 403) {
            check(/insufficient_scope/.test(answer.text), `a 403 that is not insufficient_scope: ${label}`);
          }
        }
      }
      // Another user with every read scope sees none of it, whatever the spelling.
      for (const probe of probes) {
        const answer = await send(era, tokens.otherUser, probe.method, probe.params);
        check(
          !answer.text.includes(SECRET),
          `another user sees the task: ${probe.target} ${JSON.stringify(probe.params)}`,
        );
        if (probe.method === 'completion/complete') {
          const values =
            (resultIn(answer.text)?.completion as { values?: string[] } | undefined)?.values ?? [];
          check(!values.includes(String(secretId)), `another user completes the task id: ${probe.target}`);
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);
  }

  it('the owner with tasks:read sees its task through every exact route', async () => {
    for (const era of ERAS) {
      const list = await send(era, tokens.read, 'tools/call', { name: 'list_tasks', arguments: {} });
      expect(list.text, era).toContain(SECRET);
      const all = await send(era, tokens.read, 'resources/read', { uri: 'tasks://all' });
      expect(all.text, era).toContain(SECRET);
      const one = await send(era, tokens.read, 'resources/read', { uri: `tasks://${secretId}` });
      expect(one.text, era).toContain(SECRET);
      const listed = await send(era, tokens.read, 'resources/list', {});
      expect(listed.text, era).toContain(SECRET);
    }
  });

  it('generate_report on tasks is refused, as an isError result, to a token without tasks:read', async () => {
    for (const era of ERAS) {
      for (const set of ['none', 'write'] as const) {
        const answer = await send(era, tokens[set], 'tools/call', {
          name: 'generate_report',
          arguments: TOOL_ARGS.generate_report,
        });
        const result = resultIn(answer.text);
        expect(result?.isError, `${era} ${set}`).toBe(true);
        expect(JSON.stringify(result), `${era} ${set}`).toMatch(/tasks:read/);
      }
      const report = await send(era, tokens.read, 'tools/call', {
        name: 'generate_report',
        arguments: TOOL_ARGS.generate_report,
      });
      const allowed = resultIn(report.text);
      expect(allowed?.isError, era).toBe(false);
    }
  });
});

describe('MCP Tasks in the matrix (2026-07-28, the extension declared)', () => {
  const asTasksClient = (token: string) =>
    new EraClient('2026-07-28', sessionful.mcpUrl, token, TASKS_CAPABILITIES);
  const errorCode = (answer: Answer) =>
    (JSON.parse(answer.text) as { error?: { code?: number } }).error?.code ?? `no error (${answer.status})`;

  it("answers another user's task id, its odd spellings and an unknown id alike (-32602), for get, update and cancel", async () => {
    const owner = asTasksClient(tokens.both);
    const created = resultIn(
      (
        await owner.send('tools/call', {
          name: 'generate_report',
          arguments: { topic: 'cities', steps: 20, delayMs: 200 },
        })
      ).text,
    );
    const taskId = String(created?.taskId);
    expect(created?.resultType).toBe('task');
    const spellings = [
      taskId,
      ` ${taskId}`,
      `${taskId}\n`,
      taskId.toLowerCase(),
      encodeURIComponent(`${taskId}/`),
      `${taskId}#x`,
    ];
    const otherUser = asTasksClient(tokens.otherUser);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      for (const spelling of spellings) {
        // The owner with the exact id is the only one who finds it; any other spelling is no task.
        const asOther = await otherUser.send(method, { taskId: spelling });
        expect(errorCode(asOther), `${method} other user ${JSON.stringify(spelling)}`).toBe(-32602);
        if (spelling === taskId) continue;
        const asOwner = await owner.send(method, { taskId: spelling });
        expect(errorCode(asOwner), `${method} owner ${JSON.stringify(spelling)}`).toBe(-32602);
      }
      // Word for word the answer to an id nobody has (the JSON-RPC id aside).
      const errorOf = (answer: Answer) => (JSON.parse(answer.text) as { error?: unknown }).error;
      const unknown = await otherUser.send(method, { taskId: 'AAAAAAAAAAAAAAAAAAAAAA' });
      expect(errorOf(await otherUser.send(method, { taskId }))).toEqual(errorOf(unknown));
    }
    // Nothing the others sent changed it: it still works for its owner, who may cancel it.
    expect(resultIn((await owner.send('tasks/get', { taskId })).text)?.status).toBe('working');
    expect(resultIn((await owner.send('tasks/cancel', { taskId })).text)?.resultType).toBe('complete');
  });

  it('refuses the task methods with -32021 to a 2026-07-28 request that did not declare the extension', async () => {
    const plain = new EraClient('2026-07-28', sessionful.mcpUrl, tokens.both);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect(errorCode(await plain.send(method, { taskId: 'AAAAAAAAAAAAAAAAAAAAAA' })), method).toBe(-32021);
    }
  });
});
