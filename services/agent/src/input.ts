/**
 * @module input
 * A tool's request for input (MCP elicitation) in one-shot `pnpm ask`: nobody is there to ask, so
 * it declines and says so. `pnpm chat` asks at the prompt instead (`terminal-input.ts`).
 */
import type { InputHandler } from './types.js';

/** Why one-shot mode answered for the person, worded for them: shown in the trace and told to the model. */
export const ONE_SHOT_NOT_ASKED = "one-shot `ask` can't ask you to confirm; use `pnpm chat` or the web page";

/**
 * For `pnpm ask`: there is no person to ask, so the tool hears "decline". The answer says nobody
 * was asked, so the trace and the model do not take it for the person's own no.
 */
export const declineInput: InputHandler = async () => ({ action: 'decline', notAsked: ONE_SHOT_NOT_ASKED });
