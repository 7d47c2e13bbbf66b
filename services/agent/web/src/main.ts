/**
 * @module main
 * The chat page: sends a message to `POST /api/chat/stream`, streams the answer into the page,
 * and draws each tool call as it starts, progresses and ends. When a tool asks the person for input
 * (`input_request`), it shows a small form in the turn (`input-form.ts`). It polls `GET /api/status`
 * while the agent starts or waits for a person to sign in (`status-view.ts`). Under each answer it
 * names the turn's OpenTelemetry trace, with a link to the trace viewer when one is set
 * (`trace-link.ts`). A call the server made a task shows the task's status (`tool_task`); Stop
 * closes the stream, and the agent cancels the turn and its tasks. A call whose tool has an MCP Apps view gets the view drawn under its trace
 * entry (`app-view.ts`). The tools panel, a dev server's banner (a failed save, type errors) and
 * the note on a view whose server changed its views all follow the agent's catalogue feed, pushed
 * as the servers announce changes (`catalogue-feed.ts`). Partners: `src/http.ts`, `trace-view.ts`.
 */
import { followCatalogue } from './catalogue-feed.js';
import { markViewsChanged, renderDevBanner } from './dev-banner.js';
import { el } from './dom.js';
import { createInputForm, focusInputForm } from './input-form.js';
import { readEvents } from './sse.js';
import { describeSignedIn, renderStartupBanner } from './status-view.js';
import { refreshTools, renderTools } from './tools-panel.js';
import { traceLine } from './trace-link.js';
import { createTraceEntry, serverLogsView, type TraceEntry } from './trace-view.js';
import type {
  AgentStatus,
  ChatDone,
  DevStatus,
  Health,
  InputRequestEvent,
  ToolCallTrace,
  ToolProgress,
  ToolStart,
  ToolTaskEvent,
} from './types.js';

/** While the agent starts, a person signs in, or a turn runs (it may need a new sign-in): look often. */
const STATUS_POLL_FAST_MS = 1_000;
/** Once ready and idle, only a slow look, for a sign-in a later step-up asks for. */
const STATUS_POLL_SLOW_MS = 10_000;

function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing from index.html`);
  return node as T;
}

const form = byId<HTMLFormElement>('chat-form');
const input = byId<HTMLTextAreaElement>('message');
const send = byId<HTMLButtonElement>('send');
const stop = byId<HTMLButtonElement>('stop');
const messages = byId<HTMLDivElement>('messages');
const status = byId<HTMLParagraphElement>('status');
const toolsList = byId<HTMLUListElement>('tools-list');
const banner = byId<HTMLDivElement>('startup-banner');
const devBanner = byId<HTMLDivElement>('dev-banner');
/** Each server's latest dev status from the catalogue feed; null once it has nothing to report. */
const devStatuses = new Map<string, DevStatus | null>();
const signedInBadge = byId<HTMLSpanElement>('signed-in-badge');
let conversationId: string | undefined;
let busy = false;
/** Aborts the running turn's stream; the agent then stops the turn and cancels any task it waits on. */
let stopTurn: AbortController | undefined;
let ready = false;
/** TRACE_VIEWER_URL as `/api/status` relays it: a template with `{traceId}`, or null. */
let traceViewerUrl: string | null = null;
/** Where tools' views run (`app-view.ts`), from `/api/status`; null when the agent runs no sandbox. */
let sandboxOrigin: string | null = null;
/** The MCP Apps host (ext-apps' AppBridge and its schemas) loads with the first view, not the page. */
let views: Promise<typeof import('./app-view.js')> | undefined;
const viewHost = () => {
  views ??= import('./app-view.js');
  return views;
};

/** The sandbox's origin as `/api/status` describes it: its own origin, or this host name at its port. */
function sandboxOriginFor(sandbox: AgentStatus['viewSandbox']): string | null {
  if (!sandbox) return null;
  return sandbox.origin ?? `${location.protocol}//${location.hostname}:${sandbox.port}`;
}

/** A live region re-announces text set again, even unchanged: set it only when it changes. */
function setStatus(text: string): void {
  if (status.textContent !== text) status.textContent = text;
}

function updateSend(): void {
  send.disabled = busy || !ready;
  stop.hidden = !busy;
}

/**
 * A server as it introduced itself, e.g. "workshop → mcp-workshop-server 0.1.0 · 2026-07-28 (modern)":
 * a stack left running from another checkout shows its own name and version here.
 */
export function describeServer(server: Health['servers'][number]): string {
  const answered = server.implementation
    ? `${server.implementation.name} ${server.implementation.version}`
    : 'a server that gave no name';
  return `${server.name} → ${answered} · ${server.protocolVersion} (${server.era})`;
}

export function describeModel(model: Health['model']): string {
  if (model.kind === 'demo') return 'Offline demo model — scripted, not a language model';
  if (model.kind === 'openai') return `OpenAI ${model.model}`;
  return `${model.model} at ${model.baseUrl}`;
}

function showReady(status: AgentStatus): void {
  if (status.model) byId('model-badge').textContent = `Model: ${describeModel(status.model)}`;
  const protocolBadge = byId('protocol-badge');
  const servers = status.servers ?? [];
  const versions = servers.map(describeServer);
  protocolBadge.textContent = `MCP: ${versions.length > 0 ? versions.join(', ') : 'no server connected'}`;
  const targets = servers.map((s) => `${s.name}: ${s.target ?? 'unknown address'}`);
  if (targets.length > 0) protocolBadge.title = targets.join('\n');
}

/**
 * The agent has AGENT_API_TOKEN set and this browser has no session: only the one-time link the
 * agent printed gives one. The page cannot ask for it; it says where to find it.
 */
function showLocked(): void {
  if (banner.dataset.key === 'locked') return;
  banner.dataset.key = 'locked';
  banner.hidden = false;
  banner.replaceChildren(
    el(
      'p',
      { role: 'alert', 'data-testid': 'locked' },
      'This chat needs the one-time link the agent printed when it started (…/?token=…). Open that link; ' +
        'a used link does not work again, and the agent prints a new one in its log after each use.',
    ),
  );
  setStatus('Not signed in to the agent.');
}

/** Reads `/api/status`, updates the banner and the header, and plans the next look. */
async function pollStatus(): Promise<void> {
  let next = STATUS_POLL_FAST_MS;
  try {
    const response = await fetch('./api/status', { cache: 'no-store' });
    if (response.status === 401) {
      showLocked();
      // Nothing changes until the person opens a link, which loads the page again.
      return;
    }
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const current = (await response.json()) as AgentStatus;
    traceViewerUrl = current.traceViewerUrl ?? null;
    sandboxOrigin = sandboxOriginFor(current.viewSandbox ?? null);
    renderStartupBanner(banner, current);
    const who = describeSignedIn(current.signedIn);
    if (signedInBadge.textContent !== who) signedInBadge.textContent = who;
    signedInBadge.hidden = who === '';
    if (current.state === 'ready' && !ready) {
      ready = true;
      showReady(current);
      updateSend();
      if (!busy) status.textContent = '';
      followCatalogue({
        tools: (tools) => renderTools(toolsList, tools),
        dev: (server, devStatus) => {
          devStatuses.set(server, devStatus);
          renderDevBanner(devBanner, devStatuses);
        },
        viewsChanged: (server) => markViewsChanged(messages, server),
      });
    } else if (current.state === 'starting') {
      setStatus(current.signIn ? 'Waiting for you to sign in…' : 'Connecting…');
    } else if (current.state === 'failed') {
      setStatus('The agent could not start.');
      byId('model-badge').textContent = 'Model: unavailable';
      byId('protocol-badge').textContent = 'MCP: not connected';
    }
    // A failed agent stays failed until it restarts (index.ts exits after a minute), so look slowly.
    const settled = current.state === 'failed' || (current.state === 'ready' && !busy && !current.signIn);
    if (settled) next = STATUS_POLL_SLOW_MS;
  } catch {
    // The agent may be restarting; keep looking.
  }
  setTimeout(() => void pollStatus(), next);
}

async function ask(message: string): Promise<void> {
  busy = true;
  updateSend();
  status.textContent = 'Thinking…';
  const answer = el('div', { class: 'answer', 'aria-live': 'polite', 'data-testid': 'answer' });
  const traceList = el('ol', { class: 'trace', 'data-testid': 'tool-trace', 'aria-label': 'Tool calls' });
  const turn = el(
    'article',
    { class: 'turn', 'data-testid': 'turn' },
    el('p', { class: 'user', 'data-testid': 'user-message' }, el('span', { class: 'who' }, 'You: '), message),
    el('p', { class: 'who' }, 'Agent:'),
    answer,
    traceList,
  );
  messages.append(turn);
  const entries = new Map<string, TraceEntry>();
  const stopping = new AbortController();
  stopTurn = stopping;
  try {
    const response = await fetch('./api/chat/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message, ...(conversationId ? { conversationId } : {}) }),
      signal: stopping.signal,
    });
    if (!response.ok || !response.body) {
      const body = (await response.json().catch(() => ({}))) as { error?: string; problems?: string[] };
      throw new Error([body.error ?? `HTTP ${response.status}`, ...(body.problems ?? [])].join(' '));
    }
    for await (const { event, data } of readEvents(response.body)) {
      if (event === 'text') answer.append((data as { text: string }).text);
      else if (event === 'tool_start') {
        const entry = createTraceEntry(data as ToolStart);
        entries.set((data as ToolStart).id, entry);
        traceList.append(entry.root);
        status.textContent = `Running ${(data as ToolStart).functionName}…`;
      } else if (event === 'tool_progress')
        entries.get((data as ToolProgress).id)?.progress(data as ToolProgress);
      else if (event === 'tool_task') {
        const { id, task } = data as ToolTaskEvent;
        entries.get(id)?.task(task);
        status.textContent = `Waiting for a task: ${task.statuses.at(-1) ?? ''}…`;
      } else if (event === 'tool_end') {
        const trace = data as ToolCallTrace;
        let entry = entries.get(trace.id);
        if (!entry) {
          entry = createTraceEntry(trace);
          traceList.append(entry.root);
        }
        entry.end(trace);
        if (trace.view && trace.server) {
          const showViewCall = (viewCall: ToolCallTrace) => {
            const viewEntry = createTraceEntry(viewCall);
            viewEntry.end(viewCall);
            traceList.append(viewEntry.root);
          };
          const root = entry.root;
          void viewHost().then((views) =>
            views.mountView(root, trace, { sandboxOrigin: () => sandboxOrigin, showViewCall }),
          );
        }
      } else if (event === 'input_request') {
        const request = data as InputRequestEvent;
        const inputForm = createInputForm(request, () => {
          status.textContent = 'Answer sent.';
          input.focus();
        });
        traceList.before(inputForm);
        status.textContent = `${request.server} is asking for your input.`;
        focusInputForm(inputForm);
      } else if (event === 'done') {
        const done = data as ChatDone;
        conversationId = done.conversationId;
        // The streamed deltas and the final answer should match; trust the final one.
        answer.textContent = done.answer;
        if (done.serverLogs && done.serverLogs.length > 0) turn.append(serverLogsView(done.serverLogs));
        const trace = traceLine(done.traceId, traceViewerUrl);
        if (trace) turn.append(trace);
      } else if (event === 'error') throw new Error((data as { message: string }).message);
    }
    status.textContent = '';
  } catch (error) {
    if (stopping.signal.aborted) {
      // The agent saw the stream close: it stopped the turn and cancelled any task it was waiting on.
      for (const running of traceList.querySelectorAll<HTMLElement>('[data-state=running]')) {
        running.dataset.state = 'stopped';
        const state = running.querySelector('[data-testid=tool-state]');
        if (state) state.textContent = 'Stopped';
      }
      turn.append(
        el(
          'p',
          { class: 'stopped', 'data-testid': 'stopped' },
          'Stopped. Any task it started was cancelled.',
        ),
      );
      status.textContent = 'Stopped.';
    } else {
      const text = error instanceof Error ? error.message : String(error);
      turn.append(el('p', { class: 'problem', role: 'alert' }, `Error: ${text}`));
      status.textContent = 'The last message failed.';
    }
  } finally {
    stopTurn = undefined;
    // The turn is over, so any request for input it raised is over too (answered, cancelled or expired).
    for (const stale of turn.querySelectorAll('[data-testid=input-form]')) stale.remove();
    if (traceList.childElementCount === 0) traceList.remove();
    busy = false;
    updateSend();
    void refreshTools(toolsList);
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const message = input.value.trim();
  if (!message || busy || !ready) return;
  input.value = '';
  void ask(message);
});

stop.addEventListener('click', () => stopTurn?.abort());

input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  }
});

byId('new-conversation').addEventListener('click', () => {
  conversationId = undefined;
  // Each view hears `ui/resource-teardown` while its frame still exists (a silent one is waited
  // for two seconds at most), then the old conversation goes.
  const closing = views ? views.then((host) => host.teardownAllViews()) : Promise.resolve();
  void closing.finally(() => {
    messages.replaceChildren();
    status.textContent = 'Started a new conversation.';
    input.focus();
  });
});

// Leaving the page for good: each view is told first (`ui/resource-teardown`).
window.addEventListener('pagehide', (event) => {
  if (!event.persisted && views) void views.then((host) => host.teardownAllViews());
});

updateSend();
void pollStatus();
