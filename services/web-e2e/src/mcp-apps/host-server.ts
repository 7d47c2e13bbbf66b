/**
 * @module mcp-apps/host-server
 * Serves the test host page on one origin and the sandbox proxy on a second one (two ports on
 * 127.0.0.1, as the MCP Apps spec requires of web hosts). The host origin also forwards `/mcp` to
 * the real MCP server, so the page's client needs no CORS. The sandbox is the agent's own
 * (`createViewSandboxApp`). Partner: host-page/host.ts.
 */
import { type IncomingMessage, request, type ServerResponse } from 'node:http';
import { createViewSandboxApp } from '@mcp-workshop/agent';
import { listenLoopback } from '../loopback.js';

export interface AppsHost {
  /** e.g. http://127.0.0.1:41234: the host page is `/`, the MCP server behind it `/mcp`. */
  hostOrigin: string;
  /** e.g. http://127.0.0.1:41235: the sandbox proxy is `/sandbox.html?host=<hostOrigin>`. */
  sandboxOrigin: string;
  /** The host page URL that renders `tool` called with `args`. */
  pageUrl(tool: string, args: Record<string, unknown>): string;
  close(): Promise<void>;
}

/** Streams one request to the MCP server and its answer (JSON or SSE) back. */
function forward(req: IncomingMessage, res: ServerResponse, mcpUrl: URL): void {
  const upstream = request(
    mcpUrl,
    { method: req.method, headers: { ...req.headers, host: mcpUrl.host } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

/**
 * Starts both origins. `hostHtml` is the built host page (one file); `mcpUrl` the server it talks to.
 */
export async function startAppsHost(options: { hostHtml: string; mcpUrl: string }): Promise<AppsHost> {
  const mcpUrl = new URL(options.mcpUrl);
  const host = await listenLoopback((req, res) => {
    const path = new URL(req.url ?? '/', 'http://host').pathname;
    if (path === '/mcp') return forward(req, res, mcpUrl);
    if (path === '/' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(options.hostHtml);
      return;
    }
    res.writeHead(404).end();
  });
  const hostOrigin = host.origin;
  // The agent's own sandbox proxy: this test host is one more chat page it may serve.
  const sandbox = await listenLoopback(createViewSandboxApp());
  const sandboxOrigin = sandbox.origin;
  return {
    hostOrigin,
    sandboxOrigin,
    pageUrl: (tool, args) =>
      `${hostOrigin}/?${new URLSearchParams({ tool, args: JSON.stringify(args), sandbox: sandboxOrigin })}`,
    close: async () => {
      await host.close();
      await sandbox.close();
    },
  };
}
