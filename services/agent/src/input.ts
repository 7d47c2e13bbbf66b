/**
 * @module input
 * How a tool's request for input (MCP elicitation) reaches the person. One-shot mode has nobody
 * to ask, so it declines and says so; the REPL asks at the prompt, one field at a time.
 */
import type { Interface } from 'node:readline/promises';
import type { InputAnswer, InputHandler, InputRequest } from './types.js';

/** Why one-shot mode answered for the person, worded for them: shown in the trace and told to the model. */
export const ONE_SHOT_NOT_ASKED = "one-shot `ask` can't ask you to confirm; use `pnpm chat` or the web page";

/**
 * For `pnpm ask`: there is no person to ask, so the tool hears "decline". The answer says nobody
 * was asked, so the trace and the model do not take it for the person's own no.
 */
export const declineInput: InputHandler = async () => ({ action: 'decline', notAsked: ONE_SHOT_NOT_ASKED });

interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
}

/** Asks each field of the requested form at the terminal; an empty line takes the default, "!cancel" cancels. */
export function terminalInput(rl: Interface, print: (line: string) => void): InputHandler {
  return async (request: InputRequest): Promise<InputAnswer> => {
    print(`\n[${request.server}] asks: ${request.message}`);
    const properties = (request.schema.properties ?? {}) as Record<string, FieldSchema>;
    const content: Record<string, string | number | boolean | string[]> = {};
    for (const [name, field] of Object.entries(properties)) {
      const hint = field.enum ? ` (${field.enum.join('/')})` : field.type === 'boolean' ? ' (y/n)' : '';
      const fallback = field.default === undefined ? '' : ` [${String(field.default)}]`;
      const raw = (await rl.question(`  ${field.title ?? name}${hint}${fallback}: `)).trim();
      if (raw === '!cancel') return { action: 'cancel' };
      const value = raw === '' ? field.default : raw;
      if (value === undefined || value === '') continue;
      content[name] = coerce(String(value), field);
    }
    const confirm = (await rl.question('  Send this answer? (y/n) ')).trim().toLowerCase();
    return confirm.startsWith('y') ? { action: 'accept', content } : { action: 'decline' };
  };
}

function coerce(raw: string, field: FieldSchema): string | number | boolean {
  if (field.type === 'boolean') return /^(y|yes|true|1)$/i.test(raw);
  if (field.type === 'number' || field.type === 'integer') {
    const number = Number(raw);
    return Number.isFinite(number) ? number : raw;
  }
  return raw;
}
