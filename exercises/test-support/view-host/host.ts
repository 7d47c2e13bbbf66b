/// <reference lib="dom" />
/**
 * @module test-support/view-host/host
 * The page script of the exercises' MCP Apps host (partner: ../view-host.ts, which serves it and
 * drives it). `window.showView(html, args, result)` loads a view into a sandboxed frame, wires
 * ext-apps' `AppBridge` to it and, once the view's `App` has connected, hands it the tool's input
 * and result. The status says how far it got: `rendered` means the view has its result.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

type ToolResult = Parameters<AppBridge['sendToolResult']>[0];

declare global {
  interface Window {
    showView(html: string, args: Record<string, unknown>, result: ToolResult): Promise<void>;
  }
}

const HOST_INFO = { name: 'exercise-view-host', version: '0.1.0' };
/** A view may ask for any height; a host that obeys 10^6 px lets one view bury the page. */
const MAX_VIEW_HEIGHT_PX = 2_000;

function setStatus(text: string): void {
  const status = document.getElementById('status');
  if (status) status.textContent = text;
}

window.showView = async (html, args, result) => {
  const slot = document.getElementById('slot');
  if (!slot || document.getElementById('view')) throw new Error('one view per page');
  const frame = document.createElement('iframe');
  frame.id = 'view';
  frame.title = 'The view';
  // Scripts only: the view's origin is opaque, so it cannot reach this page or its storage.
  frame.setAttribute('sandbox', 'allow-scripts');
  slot.append(frame);
  const bridge = new AppBridge(
    null,
    HOST_INFO,
    {},
    { hostContext: { theme: 'light', displayMode: 'inline' } },
  );
  bridge.oninitialized = () => {
    setStatus('connected');
    void (async () => {
      await bridge.sendToolInput({ arguments: args });
      await bridge.sendToolResult(result);
      setStatus('rendered');
    })().catch((error: unknown) => setStatus(`error: ${String(error)}`));
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height) && height >= 0)
      frame.style.height = `${Math.min(Math.ceil(height), MAX_VIEW_HEIGHT_PX)}px`;
  };
  const view = frame.contentWindow;
  if (!view) throw new Error('the view frame has no window');
  // Listening before the view loads, so its ui/initialize is not missed.
  await bridge.connect(new PostMessageTransport(view, view));
  setStatus('loading the view');
  frame.srcdoc = html;
};
