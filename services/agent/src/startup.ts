/**
 * @module startup
 * The HTTP agent's start-up as the page sees it. The agent listens first and connects after, so a
 * person can open the page while it connects, see the sign-in link and follow it. This records the
 * state (`starting`, then `ready` or `failed`), the pending sign-in link and who is signed in;
 * `http.ts` reads it for `/api/status` and `/health`, and `index.ts` feeds it from `startRuntime`.
 */
import type { ModelDescription } from './llm/provider.js';
import type { Agent } from './loop.js';
import type { Runtime } from './runtime.js';
import type { McpHub, ServerInfo, SignedInAs } from './types.js';

/** A sign-in link the SDK has not seen come back yet goes stale with the loopback wait (person-sign-in.ts). */
export const SIGN_IN_LINK_TTL_MS = 5 * 60_000;
/** A start-up error is shown on the page; a runaway message (a long stderr tail) must not flood it. */
const MAX_ERROR_CHARS = 2_000;

export type StartupState = 'starting' | 'ready' | 'failed';

/** A link a person must open to sign in to a server (authorization code with PKCE). */
export interface SignInLink {
  server: string;
  url: string;
}

/** Who the agent is signed in as on one server; never a token. */
export interface SignedInUser extends SignedInAs {
  server: string;
}

/** What the chat needs, once every server is connected. */
export interface ReadyAgent {
  agent: Agent;
  hub: McpHub;
  model: ModelDescription;
}

/** The body of `GET /api/status`. */
export interface AgentStatus {
  state: StartupState;
  /** While a person must sign in (at start-up, or later for more scopes): the link to open. */
  signIn?: SignInLink;
  signedIn: SignedInUser[];
  /** Once ready: the model and the connected servers, as `/health` shows them. */
  model?: ModelDescription;
  servers?: readonly ServerInfo[];
  /** Why start-up failed, worded for the person. */
  error?: string;
}

/** The hooks `startRuntime` takes to report sign-ins; spread them into its options. */
export interface StartupHooks {
  onSignIn(event: SignInLink): void;
  onSignInEnd(event: { server: string; user?: string }): void;
}

export interface AgentStartup {
  /** The agent once ready; undefined while starting or after a failure. */
  ready(): ReadyAgent | undefined;
  status(): AgentStatus;
  readonly hooks: StartupHooks;
  started(ready: ReadyAgent): void;
  failed(error: unknown): void;
  /** Records the runtime's outcome: ready with its parts, or failed with its error. Never rejects. */
  follow(starting: Promise<Pick<Runtime, 'agent' | 'hub' | 'model'>>): Promise<void>;
}

/** Tracks a start-up that is still to come; `now` is for tests. */
export function createAgentStartup(now: () => number = Date.now): AgentStartup {
  let state: StartupState = 'starting';
  let parts: ReadyAgent | undefined;
  let error: string | undefined;
  const links = new Map<string, SignInLink & { at: number }>();
  // People who signed in while other servers still connect; once ready, the hub's servers say it.
  const early = new Map<string, SignedInUser>();

  const pendingLink = (): SignInLink | undefined => {
    const fresh = [...links.values()].filter((link) => now() - link.at < SIGN_IN_LINK_TTL_MS);
    const latest = fresh.at(-1);
    return latest && { server: latest.server, url: latest.url };
  };

  const startup: AgentStartup = {
    ready: () => parts,
    status() {
      const signIn = state === 'failed' ? undefined : pendingLink();
      const signedIn = parts
        ? parts.hub
            .servers()
            .flatMap((server) => (server.signedInAs ? [{ server: server.name, ...server.signedInAs }] : []))
        : [...early.values()];
      return {
        state,
        ...(signIn && { signIn }),
        signedIn,
        ...(parts && { model: parts.model, servers: parts.hub.servers() }),
        ...(error !== undefined && { error }),
      };
    },
    hooks: {
      onSignIn: ({ server, url }) => {
        links.delete(server);
        links.set(server, { server, url, at: now() });
      },
      onSignInEnd: ({ server, user }) => {
        links.delete(server);
        if (user) early.set(server, { server, user, kind: 'person' });
      },
    },
    started(ready) {
      parts = ready;
      state = 'ready';
    },
    failed(caught) {
      const message = caught instanceof Error ? caught.message : String(caught);
      error = message.length > MAX_ERROR_CHARS ? `${message.slice(0, MAX_ERROR_CHARS)}…` : message;
      state = 'failed';
      links.clear();
    },
    follow(starting) {
      return starting.then(
        (runtime) =>
          startup.started({ agent: runtime.agent, hub: runtime.hub, model: runtime.model.description }),
        (caught: unknown) => startup.failed(caught),
      );
    },
  };
  return startup;
}

/** A start-up that is already over: for callers that connect before they build the app. */
export function readyStartup(ready: ReadyAgent): AgentStartup {
  const startup = createAgentStartup();
  startup.started(ready);
  return startup;
}
