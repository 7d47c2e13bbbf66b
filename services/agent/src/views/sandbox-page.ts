/**
 * @module views/sandbox-page
 * The sandbox proxy's page, which `sandbox-server.ts` serves on its own origin. The chat page frames
 * it; it puts the view's HTML in an inner frame with `sandbox="allow-scripts"` only, so the view runs
 * in an opaque origin of its own, and relays JSON-RPC between the two. It talks to one parent, the
 * chat page's origin, and relays only what its own inner frame sends: a message from anywhere else,
 * or from another frame posing as the view, is dropped.
 */

/** Replaced, once, by the chat page's origin as a JSON string. */
const HOST_ORIGIN_SLOT = '__HOST_ORIGIN_JSON__';

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>MCP Apps sandbox proxy</title>
    <style>
      html, body { margin: 0; height: 100%; overflow: hidden; background: transparent; }
      iframe { display: block; border: 0; width: 100%; height: 100%; }
    </style>
  </head>
  <body>
    <script>
      const HOST_ORIGIN = ${HOST_ORIGIN_SLOT};
      let inner = null;
      window.addEventListener('message', (event) => {
        if (event.source === window.parent) {
          if (event.origin !== HOST_ORIGIN) return;
          const message = event.data;
          if (message && message.method === 'ui/notifications/sandbox-resource-ready') {
            if (inner || typeof message.params?.html !== 'string') return;
            inner = document.createElement('iframe');
            inner.title = 'MCP App view';
            // Never allow-same-origin, whatever the parent asks: the view must not reach this page.
            inner.setAttribute('sandbox', 'allow-scripts');
            inner.srcdoc = message.params.html;
            document.body.append(inner);
            return;
          }
          if (inner && inner.contentWindow) inner.contentWindow.postMessage(message, '*');
          return;
        }
        if (inner && event.source === inner.contentWindow) window.parent.postMessage(event.data, HOST_ORIGIN);
      });
      window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, HOST_ORIGIN);
    </script>
  </body>
</html>
`;

/** The proxy page for a chat page at `hostOrigin`, which the caller has checked is an origin. */
export function sandboxPage(hostOrigin: string): string {
  // An origin holds no "<", but a script must never be closed by data: escape it anyway.
  return TEMPLATE.replace(HOST_ORIGIN_SLOT, JSON.stringify(hostOrigin).replaceAll('<', '\\u003c'));
}
