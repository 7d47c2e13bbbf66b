/**
 * @module trace-view
 * One entry per tool call under an answer: name, round, arguments, a progress bar while it runs,
 * then success or error, the call's own requests for input and server logs, and three views of
 * the result, so "structuredContent first" is visible.
 */
import { codeBlock, el, pretty } from './dom.js';
import type { LogEntry, ServerLogEntry, ToolCallTrace, ToolProgress, ToolStart, ToolTask } from './types.js';

let nextId = 0;

export interface TraceEntry {
  root: HTMLLIElement;
  progress(event: ToolProgress): void;
  /** The call became a task: shows its status while it runs. */
  task(task: ToolTask): void;
  end(trace: ToolCallTrace): void;
}

const FINAL_TASK_STATUSES = ['completed', 'failed', 'cancelled'];
/** How often a running task's elapsed time moves on the page: tenths of a second shown, so twice a second. */
const TASK_TICK_MS = 500;

/**
 * A task in one line: the start of its id (whoever holds the whole id may read the task), the
 * statuses seen and how long, and its last status message; e.g. "Task 9HkQ2x… working → completed in 2.1 s".
 */
export function describeTask(task: ToolTask): string {
  const id = task.id.length > 8 ? `${task.id.slice(0, 6)}…` : task.id;
  const last = task.statuses.at(-1) ?? '';
  const seconds = (task.elapsedMs / 1000).toFixed(1);
  const timing = FINAL_TASK_STATUSES.includes(last) ? `in ${seconds} s` : `for ${seconds} s`;
  const message = task.statusMessage ? ` · ${task.statusMessage}` : '';
  const cancel = task.cancel ? ' · cancelled by the agent' : '';
  return `Task ${id}: ${task.statuses.join(' → ')} ${timing}${message}${cancel}`;
}

export function createTraceEntry(call: ToolStart): TraceEntry {
  const name = call.tool ? `${call.server ?? ''}${call.server ? ' / ' : ''}${call.tool}` : call.functionName;
  const state = el('span', { class: 'state', 'data-testid': 'tool-state' }, 'Running…');
  const duration = el('span', { class: 'duration', 'data-testid': 'tool-duration' });
  const bar = el('progress', { 'aria-label': `Progress of ${name}` });
  const barNote = el('span', { class: 'progress-note' });
  const live = el('div', { class: 'progress-row' }, bar, barNote);
  const byView = 'calledBy' in call && call.calledBy === 'view';
  const round = el(
    'span',
    { class: 'server', 'data-testid': 'tool-round' },
    byView ? 'called by its view' : call.round === undefined ? '' : `round ${call.round}`,
  );
  const root = el(
    'li',
    {
      class: 'tool-entry',
      'data-testid': 'tool-entry',
      'data-state': 'running',
      'data-tool': name,
      ...(byView && { 'data-called-by': 'view' }),
    },
    el('div', { class: 'tool-head' }, el('strong', { class: 'tool-name' }, name), round, state, duration),
    el('p', { class: 'label' }, 'Arguments'),
    codeBlock(pretty(call.arguments)),
    live,
  );
  root.querySelector('pre')?.setAttribute('data-testid', 'tool-arguments');
  // Shown once the server makes the call a task, and kept after it ends.
  const taskLine = el('p', { class: 'task-line', 'data-testid': 'tool-task' });
  // The agent reports a task only when it changes; between reports the page counts the time itself.
  let ticking: ReturnType<typeof setInterval> | undefined;
  const showTask = (task: ToolTask) => {
    const status = task.statuses.at(-1) ?? '';
    taskLine.dataset.status = status;
    // The whole id stays out of the text (over a shoulder or a shared screen) but on the element.
    taskLine.dataset.taskId = task.id;
    taskLine.textContent = describeTask(task);
    if (!taskLine.isConnected) live.before(taskLine);
    clearInterval(ticking);
    ticking = undefined;
    if (FINAL_TASK_STATUSES.includes(status)) return;
    const shownAt = performance.now();
    ticking = setInterval(() => {
      // A closed stream (Stop) never ends the entry: once it leaves the page, stop counting.
      if (!taskLine.isConnected || root.dataset.state !== 'running') return clearInterval(ticking);
      const elapsedMs = task.elapsedMs + performance.now() - shownAt;
      taskLine.textContent = describeTask({ ...task, elapsedMs });
    }, TASK_TICK_MS);
  };

  return {
    root,
    task: showTask,
    progress(event) {
      if (event.total !== undefined && event.total > 0) {
        bar.max = event.total;
        bar.value = Math.min(event.progress, event.total);
      }
      barNote.textContent = event.message ?? `${event.progress}${event.total ? ` of ${event.total}` : ''}`;
    },
    end(trace) {
      if (trace.task) showTask(trace.task);
      clearInterval(ticking);
      live.remove();
      root.dataset.state = trace.isError ? 'error' : 'ok';
      state.textContent = trace.isError ? 'Error' : 'OK';
      duration.textContent = `${Math.round(trace.durationMs)} ms`;
      if (trace.problem) {
        root.append(el('p', { class: 'problem', 'data-testid': 'tool-problem' }, trace.problem.message));
        for (const detail of trace.problem.problems ?? []) root.append(el('p', { class: 'problem' }, detail));
      }
      for (const input of trace.inputs ?? []) {
        const outcome =
          input.notAsked !== undefined
            ? `not asked (${input.notAsked}); the tool was told "${input.action}", not by you`
            : `answered "${input.action}"`;
        root.append(
          el('p', { class: 'label' }, `Input requested by ${trace.tool ?? trace.functionName}`),
          el('p', { 'data-testid': 'tool-input' }, `“${input.message}” → ${outcome}`),
        );
      }
      const logs = trace.logs ?? [];
      if (logs.length > 0) {
        root.append(el('p', { class: 'label' }, 'Server log during this call'), logBlock(logs, 'tool-logs'));
      }
      const images = mediaFigures(trace, name);
      if (images) root.append(images);
      root.append(resultViews(trace));
    },
  };
}

/** Server logs that came while several calls ran and name none of them: shown once, under the turn. */
export function serverLogsView(logs: readonly ServerLogEntry[]): HTMLElement {
  return el(
    'div',
    { class: 'server-logs', 'data-testid': 'server-logs' },
    el('p', { class: 'label' }, 'Server log (not tied to a call)'),
    logBlock(
      logs.map((log) => ({ ...log, logger: [log.server, log.logger].filter(Boolean).join(' ') })),
      'server-log-lines',
    ),
  );
}

/** One line per log: level, the server's logger name, then its data. */
function logBlock(logs: readonly LogEntry[], testId: string): HTMLPreElement {
  const lines = logs.map(
    (log) => `[${log.level}]${log.logger ? ` ${log.logger}` : ''} ${JSON.stringify(log.data)}`,
  );
  const block = codeBlock(lines.join('\n'));
  block.setAttribute('data-testid', testId);
  return block;
}

/** The agent only keeps raster types; checked again here so a `data:` URL is never SVG or HTML. */
const SHOWN_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The images a tool returned, each with a caption; undefined when there are none. */
function mediaFigures(trace: ToolCallTrace, name: string): HTMLElement | undefined {
  const media = (trace.result?.media ?? []).filter(
    (item) => item.type === 'image' && SHOWN_IMAGE_TYPES.has(item.mimeType),
  );
  if (media.length === 0) return undefined;
  const figures = media.map((item, index) => {
    const img = el('img', {
      src: `data:${item.mimeType};base64,${item.data}`,
      alt: `Image returned by ${name} (${item.mimeType})`,
      class: 'tool-image',
      'data-testid': 'tool-image',
      decoding: 'async',
    });
    const caption = el(
      'figcaption',
      {},
      `Image ${index + 1} of ${media.length} · ${item.mimeType} · ${formatBytes(item.data)}`,
    );
    return el('figure', { class: 'tool-media-item' }, img, caption);
  });
  return el(
    'div',
    { class: 'tool-media', 'data-testid': 'tool-media' },
    el('p', { class: 'label' }, media.length === 1 ? 'Image returned' : 'Images returned'),
    ...figures,
  );
}

/** Decoded size of a base64 string, for the caption. */
function formatBytes(base64: string): string {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = Math.floor((base64.length * 3) / 4) - padding;
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function resultViews(trace: ToolCallTrace): HTMLElement {
  const result = trace.result;
  const text = result ? [...result.text, ...result.otherContent.map((d) => `[non-text content] ${d}`)] : [];
  const views: [string, string, string][] = [
    ['structured', 'structuredContent', result ? pretty(result.structuredContent) : '(no result)'],
    ['text', 'Text content', text.length > 0 ? text.join('\n\n') : '(none)'],
    [
      'sent',
      'Sent to model',
      trace.calledBy === 'view'
        ? '(nothing: its view made this call, and the result went back to the view)'
        : `${trace.sentToModel}${trace.truncated ? '\n\n(truncated before sending)' : ''}`,
    ],
  ];
  const base = `trace-${nextId++}`;
  const tablist = el('div', { role: 'tablist', 'aria-label': 'Result views', class: 'tabs' });
  const panels: HTMLElement[] = [];
  const tabs: HTMLButtonElement[] = [];
  // Open on the view the model actually got: structuredContent when it was preferred, else the text.
  const byView = trace.calledBy === 'view';
  // A view's call went to no model: open on what the view got, structuredContent when there is one.
  const initial = byView
    ? result?.structuredContent !== undefined
      ? 0
      : 1
    : trace.sentAs.startsWith('structured')
      ? 0
      : trace.sentAs === 'text'
        ? 1
        : 2;
  views.forEach(([key, label, body], index) => {
    const tab = el(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `${base}-tab-${key}`,
        'aria-controls': `${base}-panel-${key}`,
        'data-view': key,
      },
      label,
    );
    const panel = el(
      'div',
      { role: 'tabpanel', id: `${base}-panel-${key}`, 'aria-labelledby': tab.id, 'data-view': key },
      codeBlock(body),
    );
    tabs.push(tab);
    panels.push(panel);
    tablist.append(tab);
    tab.addEventListener('click', () => select(index));
  });
  const select = (chosen: number) => {
    tabs.forEach((tab, i) => {
      tab.setAttribute('aria-selected', String(i === chosen));
      tab.tabIndex = i === chosen ? 0 : -1;
      const panel = panels[i];
      if (panel) panel.hidden = i !== chosen;
    });
  };
  tablist.addEventListener('keydown', (event) => {
    const current = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (current === -1) return;
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = (current + step + tabs.length) % tabs.length;
    select(next);
    tabs[next]?.focus();
  });
  select(initial);
  return el(
    'div',
    { class: 'views' },
    el(
      'p',
      { class: 'label' },
      byView
        ? 'Not sent to the model: the result went back to the view'
        : `Sent to the model as: ${trace.sentAs}`,
    ),
    tablist,
    ...panels,
  );
}
