/**
 * @module app-view
 * The chat page as an MCP Apps host: a tool call whose tool has a `ui://` view gets that view drawn
 * under its trace entry. The view's HTML comes from the agent (`GET /api/views/resource`), runs in
 * the sandbox proxy on a second origin (`src/views/sandbox-server.ts`) under the policy built from
 * the origins it declared, and talks to this page through ext-apps' `AppBridge`:
 * `ui/initialize` (theme, container size), the tool's input and result, size changes, links opened
 * after the person agrees, and teardown. A view's `tools/call` goes to `POST /api/views/call`, which
 * allows only its own server's tools with "app" visibility, and shows in the trace like any call.
 */

import type { CallToolResult } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { el } from './dom.js';
import { createInputForm, focusInputForm } from './input-form.js';
import { readEvents } from './sse.js';
import type { InputRequestEvent, ToolCallTrace } from './types.js';

const HOST_INFO = { name: 'mcp-workshop-chat', version: '0.1.0' };
/** A view may ask for any height; the page keeps it to this, and the view scrolls inside. */
export const MAX_VIEW_HEIGHT_PX = 900;
/** A view's log lines kept on the page; older ones go first. */
const MAX_VIEW_LOG_LINES = 50;
/** How long a view has to answer the teardown request before its frame is removed anyway. */
const TEARDOWN_TIMEOUT_MS = 2_000;

/** What `/api/views/resource` answers. */
interface ViewResource {
  server: string;
  uri: string;
  html: string;
  csp: Record<string, string[]>;
  prefersBorder?: boolean;
}

/** A tool result as MCP sends it; the page rebuilds one from the trace for the view. */
type ToolResult = CallToolResult;

export interface ViewHostOptions {
  /** The sandbox proxy's origin, or null when the agent runs none. */
  sandboxOrigin: () => string | null;
  /** Shows a call the view made, as a trace entry of the same turn. */
  showViewCall: (trace: ToolCallTrace) => void;
}

/** Views still on the page, so a new conversation or leaving the page tears them down. */
const mounted = new Set<() => Promise<void>>();

/** Tears down every view on the page (new conversation, page hidden for good). */
export async function teardownAllViews(): Promise<void> {
  await Promise.all([...mounted].map((teardown) => teardown()));
}

function currentTheme(): 'light' | 'dark' {
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The tool's result as the trace kept it: text blocks, structuredContent and isError. */
function resultFromTrace(trace: ToolCallTrace): ToolResult {
  const result = trace.result;
  if (!result) {
    return { content: [{ type: 'text', text: trace.problem?.message ?? 'The call failed.' }], isError: true };
  }
  const structured = result.structuredContent;
  return {
    content: result.text.map((text) => ({ type: 'text' as const, text })),
    ...(typeof structured === 'object' && structured !== null && !Array.isArray(structured)
      ? { structuredContent: structured as Record<string, unknown> }
      : {}),
    isError: result.isError,
  };
}

/** Only http(s) links are offered to the person; a `javascript:` or `file:` URL never is. */
function openableUrl(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

async function errorOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  return body.error ?? `HTTP ${response.status}`;
}

/**
 * A view's `tools/call`, through the agent. A tool's request for input shows as a form beside the
 * view; the answer's trace entry joins the turn's trace.
 */
async function callThroughAgent(
  view: ViewResource,
  params: { name: string; arguments?: Record<string, unknown> },
  formSlot: HTMLElement,
  options: ViewHostOptions,
): Promise<ToolResult> {
  const response = await fetch('./api/views/call', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      server: view.server,
      uri: view.uri,
      name: params.name,
      arguments: params.arguments ?? {},
    }),
  });
  if (!response.ok || !response.body) throw new Error(await errorOf(response));
  for await (const { event, data } of readEvents(response.body)) {
    if (event === 'input_request') {
      const form = createInputForm(data as InputRequestEvent);
      formSlot.before(form);
      focusInputForm(form);
    } else if (event === 'done') {
      const answer = data as { result: ToolResult; trace: ToolCallTrace };
      options.showViewCall(answer.trace);
      return answer.result;
    }
  }
  throw new Error('The agent closed the call without an answer.');
}

/** Draws the view of `call` (which has `call.view`) at the end of `entry`. */
export async function mountView(
  entry: HTMLElement,
  call: ToolCallTrace,
  options: ViewHostOptions,
): Promise<void> {
  const uri = call.view?.uri ?? '';
  const server = call.server ?? '';
  const note = el('p', { class: 'view-note', 'data-testid': 'view-status' }, 'Loading the view…');
  const box = el(
    'section',
    {
      class: 'app-view',
      'data-testid': 'app-view',
      'data-uri': uri,
      'data-server': server,
      'aria-label': `View of ${call.tool ?? ''}`,
    },
    el('p', { class: 'label' }, `View · ${uri}`),
    note,
  );
  entry.append(box);
  const sandboxOrigin = options.sandboxOrigin();
  if (!sandboxOrigin) {
    note.textContent = 'This tool has a view, but the agent runs no sandbox to show it in.';
    return;
  }
  const response = await fetch(`./api/views/resource?${new URLSearchParams({ server, uri })}`);
  if (!response.ok) {
    note.textContent = `The view could not be loaded: ${await errorOf(response)}`;
    box.dataset.state = 'failed';
    return;
  }
  const view = (await response.json()) as ViewResource;

  const frame = el('iframe', { title: `View of ${call.tool ?? uri}`, 'data-testid': 'app-view-frame' });
  // The proxy keeps its own (second) origin; the view inside it gets an opaque one (sandbox-page.ts).
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  frame.setAttribute('referrerpolicy', 'no-referrer');
  // No camera, microphone, geolocation or clipboard: this host grants a view no permissions.
  frame.setAttribute('allow', '');
  if (view.prefersBorder === false) frame.classList.add('borderless');

  const bridge = new AppBridge(
    null,
    HOST_INFO,
    { serverTools: {}, openLinks: {}, logging: {} },
    {
      hostContext: {
        theme: currentTheme(),
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        containerDimensions: { width: Math.round(box.clientWidth), maxHeight: MAX_VIEW_HEIGHT_PX },
        locale: navigator.language,
        platform: 'web',
        toolInfo: { tool: { name: call.tool ?? call.functionName, inputSchema: { type: 'object' } } },
      },
    },
  );
  bridge.onsandboxready = () => {
    void bridge.sendSandboxResourceReady({ html: view.html, csp: view.csp, sandbox: 'allow-scripts' });
  };
  bridge.oninitialized = () => {
    void (async () => {
      await bridge.sendToolInput({ arguments: (call.arguments ?? {}) as Record<string, unknown> });
      await bridge.sendToolResult(resultFromTrace(call));
      note.textContent = '';
      box.dataset.state = 'shown';
    })();
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height) && height >= 0) {
      frame.style.height = `${Math.min(Math.ceil(height), MAX_VIEW_HEIGHT_PX)}px`;
    }
  };
  bridge.oncalltool = (params) => callThroughAgent(view, params, frame, options);
  bridge.onopenlink = async ({ url }) => {
    const target = openableUrl(url);
    const agreed =
      target !== undefined &&
      confirm(`The view of ${call.tool ?? uri} wants to open\n${target}\nin a new tab. Open it?`);
    if (!agreed) return { isError: true };
    window.open(target, '_blank', 'noopener,noreferrer');
    return {};
  };
  bridge.onrequestdisplaymode = async () => ({ mode: 'inline' });
  const log = el('ol', { class: 'view-log', 'data-testid': 'view-log' });
  bridge.onloggingmessage = ({ level, data }) => {
    if (log.childElementCount >= MAX_VIEW_LOG_LINES) log.firstElementChild?.remove();
    log.append(
      el('li', {}, `[${level}] ${typeof data === 'string' ? data : JSON.stringify(data)}`.slice(0, 500)),
    );
  };

  const themeWatch = matchMedia('(prefers-color-scheme: dark)');
  const onTheme = () => void bridge.sendHostContextChange({ theme: currentTheme() });
  themeWatch.addEventListener('change', onTheme);

  let torn = false;
  const teardown = async () => {
    if (torn) return;
    torn = true;
    mounted.delete(teardown);
    themeWatch.removeEventListener('change', onTheme);
    await bridge.teardownResource({}, { timeout: TEARDOWN_TIMEOUT_MS }).catch(() => undefined);
    await bridge.close().catch(() => undefined);
    frame.remove();
    box.dataset.state = 'removed';
    note.textContent = 'The view was closed.';
  };
  bridge.onrequestteardown = () => void teardown();
  mounted.add(teardown);

  box.append(frame, el('details', { class: 'view-log-box' }, el('summary', {}, 'View log'), log));
  const target = frame.contentWindow;
  if (!target) throw new Error('the view frame has no window');
  // Listening before the proxy loads, so its sandbox-proxy-ready is not missed.
  await bridge.connect(new PostMessageTransport(target, target));
  frame.src = `${sandboxOrigin}/sandbox.html?${new URLSearchParams({ host: location.origin, csp: JSON.stringify(view.csp) })}`;
}
