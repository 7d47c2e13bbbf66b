/**
 * The check for exercise 08: `count_words` as an MCP Task. The tool is served over HTTP with the
 * workshop's task runtime on a SQLite database in a temporary folder, and spoken to in raw
 * 2026-07-28 requests, as a client of the Tasks extension does (the SDK's own client cannot read a
 * task yet). "A restart" closes the server and opens a new one on the same folder, as a process
 * stopped and started again would. Each test name is a sentence `pnpm exercise 08` prints.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { postModern, readMessages, TASKS_CAPABILITIES } from '@mcp-workshop/test-infra';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearFetchLog, DOCUMENT_IDS, FETCH_DELAY_MS, FETCH_LOG } from '../data/documents.js';
import { loadParticipant } from '../test-support/participant.js';
import { type ServedTools, serveTools } from '../test-support/serve.js';

type Participant = typeof import('./starter/count-words.js');
type Json = Record<string, unknown>;

/** Six documents at 200 ms each take about 1.2 s; this is for a loaded machine. */
const WAIT_MS = 15_000;
const POLL_MS = 25;

describe('exercise 08: count_words as a task', () => {
  let countWords: Participant['countWords'];
  let dataDir: string;
  let served: ServedTools | undefined;

  beforeEach(async () => {
    ({ countWords } = await loadParticipant<Participant>('08-task-tool', 'count-words.ts'));
    dataDir = mkdtempSync(join(tmpdir(), 'exercise-08-'));
    clearFetchLog();
    served = await serve();
  });

  afterEach(async () => {
    await served?.close();
    served = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * The tool on a server of its own, with MCP Tasks stored under `dataDir`; unfinished tasks resume.
   * Its `close()` leaves tasks in progress `working` in the database, for the next server to resume.
   */
  const serve = () => serveTools('exercise-08', [countWords], { dataDir, stateless: true });

  /** One 2026-07-28 request; `tasks` declares the extension in the request's client capabilities. */
  async function send(method: string, params: Json, { tasks = true } = {}): Promise<Json> {
    if (!served) throw new Error('no server');
    const response = await postModern(served.mcpUrl, method, params, {
      capabilities: tasks ? TASKS_CAPABILITIES : {},
    });
    const [message] = await readMessages(response);
    if (message?.error)
      throw new Error(`${method} answered error ${message.error.code}: ${message.error.message}`);
    return (message?.result ?? {}) as Json;
  }

  const callCountWords = (options?: { tasks: boolean }) =>
    send('tools/call', { name: 'count_words', arguments: {} }, options);

  /** The task id of a `tools/call` answer, after checking it is a task at all. */
  function taskIdOf(answer: Json): string {
    expect(
      answer.resultType,
      'a client that declares io.modelcontextprotocol/tasks should get resultType "task": add task: \'optional\' to defineTool',
    ).toBe('task');
    expect(typeof answer.taskId, 'the task result should carry a taskId').toBe('string');
    return String(answer.taskId);
  }

  async function until(taskId: string, done: (task: Json) => boolean): Promise<Json> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const task = await send('tasks/get', { taskId });
      if (done(task)) return task;
      if (Date.now() > deadline) throw new Error(`the task never got there; it is ${JSON.stringify(task)}`);
      await sleep(POLL_MS);
    }
  }

  async function untilLog(what: string, done: () => boolean): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (!done()) {
      if (Date.now() > deadline)
        throw new Error(`never saw ${what}; the archive's log: ${JSON.stringify(FETCH_LOG)}`);
      await sleep(5);
    }
  }

  const started = () => FETCH_LOG.filter((entry) => entry.event === 'started');
  const finished = () => FETCH_LOG.filter((entry) => entry.event === 'finished');

  it('a 2026-07-28 client that declares the Tasks extension gets a task, working, instead of the answer', async () => {
    const answer = await callCountWords();
    taskIdOf(answer);
    expect(answer.status, 'a new task is "working"').toBe('working');
    expect(
      answer.content,
      'a task result carries no content: the answer comes with tasks/get',
    ).toBeUndefined();
  });

  it('a client that does not declare the extension still gets the answer at once', async () => {
    const answer = await callCountWords({ tasks: false });
    expect(answer.resultType, 'without the extension the call is answered as usual').toBe('complete');
    expect(answer.isError, 'the answer should not be an error').toBe(false);
    expect(
      (answer.structuredContent as Json | undefined)?.totalWords,
      'the answer holds totalWords',
    ).toBeTypeOf('number');
  });

  it('the task completes, and tasks/get returns the same result the tool answers at once', async () => {
    const direct = await callCountWords({ tasks: false });
    const taskId = taskIdOf(await callCountWords());
    const task = await until(taskId, (t) => t.status !== 'working');
    expect(task.status, `the task should complete; tasks/get said ${JSON.stringify(task)}`).toBe('completed');
    const result = task.result as Json | undefined;
    expect(result?.structuredContent, 'the task result should be the same report').toEqual(
      direct.structuredContent,
    );
    expect(result?.content, 'and the same text').toEqual(direct.content);
  });

  it('each document is a step: after a restart the task fetches none of the finished ones again, and completes', async () => {
    const taskId = taskIdOf(await callCountWords());
    // The third fetch starts only once the second document's step is recorded: stop the server there.
    await untilLog('a third document started', () => started().length >= 3);
    const before = new Set(finished().map((entry) => entry.id));
    const stoppedAt = Date.now();
    await served?.close();
    served = await serve();

    const task = await until(taskId, (t) => t.status !== 'working');
    expect(task.status, `the resumed task should complete; tasks/get said ${JSON.stringify(task)}`).toBe(
      'completed',
    );
    const again = FETCH_LOG.filter(
      (entry) => entry.event === 'started' && entry.at > stoppedAt && before.has(entry.id),
    );
    expect(
      again.map((entry) => entry.id),
      'documents counted before the restart were fetched again: wrap each fetch and count in step(key, …) with a key that is the same on every attempt',
    ).toEqual([]);
    const report = (task.result as Json | undefined)?.structuredContent as {
      documents?: Array<{ id: string }>;
    };
    expect(
      report?.documents?.map((entry) => entry.id),
      'the resumed report still holds every document, in order',
    ).toEqual([...DOCUMENT_IDS]);
  });

  it('tasks/cancel ends the task cancelled and stops the fetch in flight (pass the signal to fetchDocument)', async () => {
    const taskId = taskIdOf(await callCountWords());
    // Cancel right after a fetch started, so it is in flight for most of FETCH_DELAY_MS.
    await untilLog(
      'a second document started',
      () => FETCH_LOG.filter((e) => e.event === 'started').length >= 2,
    );
    await send('tasks/cancel', { taskId });
    const cancelledAt = Date.now();
    const task = await until(taskId, (t) => t.status !== 'working');
    expect(task.status, 'a cancelled task ends "cancelled"').toBe('cancelled');
    await sleep(FETCH_DELAY_MS * 2);
    expect(
      FETCH_LOG.filter((entry) => entry.event === 'finished' && entry.at > cancelledAt).map(
        (entry) => entry.id,
      ),
      'a fetch finished after the cancel: pass the context’s signal to fetchDocument(id, signal)',
    ).toEqual([]);
    expect(
      FETCH_LOG.filter((entry) => entry.event === 'started' && entry.at > cancelledAt).map(
        (entry) => entry.id,
      ),
      'no document should be fetched after the cancel',
    ).toEqual([]);
  });
});
