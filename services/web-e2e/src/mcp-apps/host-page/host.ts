/**
 * @module mcp-apps/host-page/host
 * The test host page's script, a minimal MCP Apps web host: it calls one tool on a real MCP server
 * (`/mcp`, forwarded by ../host-server.ts), reads the tool's `ui://` view, loads it through the
 * sandbox proxy on a second origin, and wires ext-apps' `AppBridge` to it. The page URL says which
 * tool: `?tool=get_weather&args={"city":"Oslo"}&sandbox=http://127.0.0.1:PORT`.
 */
import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import {
  AppBridge,
  getToolUiResourceUri,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/app-bridge';

const HOST_INFO = { name: 'mcp-apps-test-host', version: '0.1.0' };
const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** A server that pages its tool list forever is a bug; stop after this many pages. */
const MAX_TOOL_PAGES = 20;
/** A view may ask for any height; a host that obeys 10^6 px lets one view bury the page. */
const MAX_VIEW_HEIGHT_PX = 2_000;
/** How long a view has to answer the teardown request before it is removed anyway. */
const TEARDOWN_TIMEOUT_MS = 3_000;

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (!found) throw new Error(`host page: no #${id}`);
  return found;
}

function setStatus(text: string): void {
  element('status').textContent = text;
}

function appendTo(listId: string, text: string): void {
  const item = document.createElement('li');
  item.textContent = text;
  element(listId).append(item);
}

/** The spec's default is both: a tool without `visibility` is for the model and the view. */
function visibleToApp(tool: Tool): boolean {
  const ui = tool._meta?.ui as { visibility?: unknown } | undefined;
  return !Array.isArray(ui?.visibility) || ui.visibility.includes('app');
}

async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
    const result = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) return tools;
  }
  throw new Error(`tools/list still paging after ${MAX_TOOL_PAGES} pages`);
}

async function readView(client: Client, uri: string): Promise<string> {
  const { contents } = await client.readResource({ uri });
  const first = contents[0];
  if (!first || !('text' in first) || first.mimeType !== RESOURCE_MIME_TYPE) {
    throw new Error(`${uri} is not one ${RESOURCE_MIME_TYPE} text resource`);
  }
  return first.text;
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const toolName = params.get('tool') ?? '';
  const args = JSON.parse(params.get('args') ?? '{}') as Record<string, unknown>;
  const sandboxOrigin = new URL(params.get('sandbox') ?? '').origin;

  const client = new Client(HOST_INFO, {
    capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));
  const tools = await listAllTools(client);
  const tool = tools.find((candidate) => candidate.name === toolName);
  if (!tool) throw new Error(`no tool ${toolName}`);
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${toolName} declares no view`);
  const result = await client.callTool({ name: toolName, arguments: args });
  const html = await readView(client, uri);
  // Shown by the host, so a test can hold the view's drawing against the server's real answer.
  element('tool-result').textContent = JSON.stringify(result.structuredContent ?? null);

  // The outer frame is the sandbox proxy on a second origin. allow-same-origin keeps that origin
  // (never this page's), as the spec asks of the proxy; the view itself goes in an inner frame with
  // sandbox="allow-scripts" only, so its origin is opaque.
  const frame = document.createElement('iframe');
  frame.id = 'view';
  frame.title = `View of ${toolName}`;
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  const bridge = new AppBridge(
    null,
    HOST_INFO,
    { serverTools: {}, logging: {} },
    {
      hostContext: { theme: 'light', displayMode: 'inline' },
    },
  );
  bridge.onsandboxready = () => {
    void bridge.sendSandboxResourceReady({ html, sandbox: 'allow-scripts' });
  };
  bridge.oninitialized = () => {
    void (async () => {
      await bridge.sendToolInput({ arguments: args });
      await bridge.sendToolResult(result);
      setStatus('rendered');
    })();
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height) && height >= 0) {
      frame.style.height = `${Math.min(Math.ceil(height), MAX_VIEW_HEIGHT_PX)}px`;
    }
  };
  bridge.onloggingmessage = ({ data }) => appendTo('log', String(data));
  bridge.oncalltool = async (call) => {
    const target = tools.find((candidate) => candidate.name === call.name);
    if (!target || !visibleToApp(target)) {
      appendTo('refused', call.name);
      throw new Error(`Tool "${call.name}" is not available to views`);
    }
    return client.callTool(call);
  };

  element('slot').append(frame);
  // Listening before the proxy loads, so its sandbox-proxy-ready is not missed.
  const window_ = frame.contentWindow;
  if (!window_) throw new Error('the view frame has no window');
  await bridge.connect(new PostMessageTransport(window_, window_));
  frame.src = `${sandboxOrigin}/sandbox.html?${new URLSearchParams({ host: location.origin })}`;

  element('remove').addEventListener('click', () => {
    void (async () => {
      await bridge.teardownResource({}, { timeout: TEARDOWN_TIMEOUT_MS }).catch(() => undefined);
      await bridge.close();
      frame.remove();
      await client.close();
      setStatus('removed');
    })();
  });
}

main().catch((error: unknown) => {
  setStatus(`error: ${error instanceof Error ? error.message : String(error)}`);
});
