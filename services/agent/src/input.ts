/**
 * @module input
 * How a tool's request for input (MCP elicitation) reaches the person. One-shot mode has nobody
 * to ask, so it declines; the REPL asks at the prompt, one field at a time.
 */
import type { Interface } from 'node:readline/promises';
import type { InputAnswer, InputHandler, InputRequest } from './types.js';

/** For `pnpm ask` and the HTTP API without a page: there is no person to ask, so say no. */
export const declineInput: InputHandler = async () => ({ action: 'decline' });

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
