/**
 * @module stack
 * The whole chat stack in-process, as a browser test needs it: the workshop MCP server on a temp
 * data dir, the offline demo model, the agent (reaching both over HTTP, as in production), its
 * HTTP app (which serves the chat page at `/`) on 127.0.0.1, and the system Chromium driven by
 * playwright-core. Nothing is downloaded. Extra agent settings (`agentEnv`) turn on e.g. telemetry.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAgentApp,
  createInputBroker,
  createSilentLogger,
  createViewSandboxApp,
  declineInput,
  type InputBroker,
  loadAgentEnv,
  type Runtime,
  startRuntime,
} from '@mcp-workshop/agent';
import { startDemoModel } from '@mcp-workshop/demo-model';
import type { Catalogue } from '@mcp-workshop/mcp-host/kit';
import { type LocalCatalogue, startCatalogue } from '@mcp-workshop/mcp-host/run';
import workshop, { type ToolDeps } from '@mcp-workshop/mcp-server';
import { CHROMIUM_ARGS, CHROMIUM_INSTALL_HINT, CHROMIUM_PATH } from '@mcp-workshop/test-infra';
import { type Browser, chromium } from 'playwright-core';
import { listenLoopback } from './loopback.js';

/** The workshop catalogue's settings: a catalogue the stack serves reads them, and has its deps. */
type WorkshopShape = NonNullable<(typeof workshop)['env']>;
export type WorkshopServer = LocalCatalogue<WorkshopShape, ToolDeps>;

export interface Stack {
  /** e.g. http://127.0.0.1:41234 — the page and its API share this origin. */
  origin: string;
  /** The sandbox proxy for tools' views, on a second port (http://127.0.0.1:<port>). */
  sandboxOrigin: string;
  browser: Browser;
  runtime: Runtime;
  /** The workshop MCP server, e.g. to read its task store behind the page's back. */
  mcpServer: WorkshopServer;
  /** With `askThePage`: the broker that brings tools' requests for input to the page. */
  broker?: InputBroker;
  close(): Promise<void>;
}

/** Fails (never skips) with the install command when the system Chromium is missing. */
export function assertChromium(path = CHROMIUM_PATH): void {
  if (!existsSync(path)) throw new Error(`No browser at ${path}: ${CHROMIUM_INSTALL_HINT}`);
}

/** The system Chromium, headless; fails with the install command when it is missing. */
export async function launchChromium(): Promise<Browser> {
  assertChromium();
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    timeout: 20_000,
    args: [...CHROMIUM_ARGS],
  });
}

export interface StackOptions {
  /**
   * The catalogue to serve instead of the workshop's, on the workshop's settings and services: e.g.
   * the workshop's with the conformance fixtures (`@mcp-workshop/conformance-server`:
   * `test_image_content` returns a PNG). The workshop's by default, so the tool list is the real one.
   */
  catalogue?: Catalogue<WorkshopShape, ToolDeps>;
  /**
   * More agent settings, checked by its env.ts like any other, e.g. `OTEL_EXPORTER_OTLP_ENDPOINT`
   * (telemetry on) and `TRACE_VIEWER_URL` (the page links each turn's trace).
   */
  agentEnv?: Record<string, string>;
  /** More MCP servers for the agent beside the workshop's, by name: e.g. a fixture with hostile views. */
  extraServers?: Record<string, string>;
  /**
   * Tools' requests for input go to the open chat page, as `pnpm start` does (an input broker);
   * without it they are declined at once, which keeps tests of other things short.
   */
  askThePage?: boolean;
  /** A view's calls and loads per minute (AGENT_VIEW_CALLS_PER_MINUTE); default the agent's own. */
  viewCallsPerMinute?: number;
}

/**
 * The agent's settings for a test stack: this server, this demo model, no key whatever the shell
 * says, then `extra`.
 */
function agentEnvFor(mcpUrl: string, demoModelUrl: string, extra: Record<string, string> = {}) {
  return loadAgentEnv({
    MCP_SERVER_URL: mcpUrl,
    DEMO_MODEL_URL: demoModelUrl,
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
    ...extra,
  });
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  assertChromium();
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const dataDir = await mkdtemp(join(tmpdir(), 'web-e2e-'));
    closers.push(() => rm(dataDir, { recursive: true, force: true }));
    const server = await startCatalogue(options.catalogue ?? workshop, { env: { DATA_DIR: dataDir } });
    closers.push(() => server.close());

    const demoModel = await startDemoModel();
    closers.push(() => demoModel.close());
    const extra = { ...options.agentEnv };
    if (options.extraServers) {
      // The same file format a participant writes (Claude Desktop's mcpServers), workshop first.
      const servers = { workshop: server.mcpUrl, ...options.extraServers };
      const configPath = join(dataDir, 'mcp-servers.json');
      const mcpServers = Object.fromEntries(Object.entries(servers).map(([name, url]) => [name, { url }]));
      await writeFile(configPath, JSON.stringify({ mcpServers }));
      extra.MCP_SERVERS_CONFIG = configPath;
    }
    const env = agentEnvFor(server.mcpUrl, demoModel.url, extra);
    const logger = createSilentLogger();
    const broker = options.askThePage ? createInputBroker() : undefined;
    const runtime = await startRuntime({
      env,
      logger,
      onInput: broker ? broker.handler : declineInput,
      connectAttempts: 1,
    });
    closers.push(() => runtime.close());

    // As index.ts does: the views' sandbox proxy on a port of its own, then the page.
    const sandbox = await listenLoopback(createViewSandboxApp());
    closers.push(sandbox.close);
    const app = createAgentApp({
      agent: runtime.agent,
      hub: runtime.hub,
      model: runtime.model.description,
      logger,
      traceViewerUrl: env.TRACE_VIEWER_URL,
      viewSandbox: { port: Number(new URL(sandbox.origin).port) },
      viewCallsPerMinute: options.viewCallsPerMinute ?? env.AGENT_VIEW_CALLS_PER_MINUTE,
      toolTimeoutMs: env.AGENT_TOOL_TIMEOUT_MS,
      ...(broker && { inputBroker: broker }),
    });
    const page = await listenLoopback(app);
    closers.push(page.close);

    const browser = await launchChromium();
    closers.push(() => browser.close());
    return {
      origin: page.origin,
      sandboxOrigin: sandbox.origin,
      browser,
      runtime,
      mcpServer: server,
      ...(broker && { broker }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
