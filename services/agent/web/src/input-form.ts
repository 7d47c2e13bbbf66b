/**
 * @module input-form
 * A tool's request for input (MCP elicitation), drawn as a small form inside the current turn:
 * one labelled control per property of the flat schema, then "Send" (accept), "Decline" and
 * "Cancel". The answer goes to `POST /api/input/:id`; Escape cancels. Built with DOM APIs only:
 * the message and titles come from a tool server and are shown as text.
 */
import { el } from './dom.js';
import type { InputRequestEvent } from './types.js';

type Value = string | number | boolean | string[];
type Answer = { action: 'accept'; content: Record<string, Value> } | { action: 'decline' | 'cancel' };

interface Field {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  enumNames?: unknown[];
  oneOf?: { const?: unknown; title?: string }[];
  items?: { enum?: unknown[]; anyOf?: { const?: unknown; title?: string }[] };
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

interface Control {
  name: string;
  read(): Value | undefined;
}

let formCount = 0;

/** Builds the form; `onDone` runs once it has been answered (or turned out to be stale) and removed. */
export function createInputForm(
  request: InputRequestEvent,
  onDone: () => void = () => undefined,
): HTMLFormElement {
  const prefix = `input-${++formCount}`;
  const properties = (request.schema.properties ?? {}) as Record<string, Field>;
  const required = new Set(
    Array.isArray(request.schema.required) ? (request.schema.required as string[]) : [],
  );
  const controls: Control[] = [];
  const fields = el('div', { class: 'input-fields' });
  for (const [name, field] of Object.entries(properties)) {
    const id = `${prefix}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const { row, control } = buildField(id, name, field, required.has(name));
    fields.append(row);
    controls.push(control);
  }

  const problem = el('p', { class: 'problem', role: 'alert', hidden: '' });
  const sendButton = el('button', { type: 'submit', class: 'input-send' }, 'Send');
  const declineButton = el('button', { type: 'button', class: 'secondary' }, 'Decline');
  const cancelButton = el('button', { type: 'button', class: 'secondary' }, 'Cancel');
  const legendId = `${prefix}-legend`;
  const form = el(
    'form',
    {
      class: 'input-request',
      'data-testid': 'input-form',
      'aria-labelledby': legendId,
      novalidate: '',
    },
    el(
      'fieldset',
      {},
      el(
        'legend',
        { id: legendId },
        el('span', { class: 'input-server' }, `${request.server} asks: `),
        request.message,
      ),
      fields,
      el('div', { class: 'input-actions' }, sendButton, declineButton, cancelButton),
      problem,
    ),
  );

  let sending = false;
  const submit = async (answer: Answer) => {
    if (sending) return;
    sending = true;
    for (const button of [sendButton, declineButton, cancelButton]) button.disabled = true;
    try {
      const response = await fetch(`./api/input/${encodeURIComponent(request.id)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(answer),
      });
      if (response.ok || response.status === 404) {
        // 404: the request was answered elsewhere or expired; the form has nothing left to do.
        form.remove();
        onDone();
        return;
      }
      const body = (await response.json().catch(() => ({}))) as { error?: string; problems?: string[] };
      throw new Error([body.error ?? `HTTP ${response.status}`, ...(body.problems ?? [])].join(' '));
    } catch (error) {
      problem.hidden = false;
      problem.textContent = `Could not send the answer: ${error instanceof Error ? error.message : String(error)}`;
      sending = false;
      for (const button of [sendButton, declineButton, cancelButton]) button.disabled = false;
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const content: Record<string, Value> = {};
    for (const control of controls) {
      const value = control.read();
      if (value !== undefined) content[control.name] = value;
    }
    void submit({ action: 'accept', content });
  });
  declineButton.addEventListener('click', () => void submit({ action: 'decline' }));
  cancelButton.addEventListener('click', () => void submit({ action: 'cancel' }));
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      void submit({ action: 'cancel' });
    }
  });
  return form;
}

/** Moves focus to the form's first control (or its Send button when the form has no fields). */
export function focusInputForm(form: HTMLFormElement): void {
  form.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
}

function buildField(
  id: string,
  name: string,
  field: Field,
  isRequired: boolean,
): { row: HTMLElement; control: Control } {
  const labelText = field.title ?? name;
  const hintId = `${id}-hint`;
  const hint = field.description
    ? el('span', { class: 'input-hint', id: hintId }, field.description)
    : undefined;
  const label = el('label', { for: id }, labelText);
  if (isRequired) label.append(el('span', { class: 'input-required' }, ' (required)'));
  const describe = (node: HTMLElement) => {
    if (hint) node.setAttribute('aria-describedby', hintId);
    if (isRequired) node.setAttribute('aria-required', 'true');
  };
  const choices = choicesOf(field);

  if (field.type === 'boolean') {
    const box = el('input', { type: 'checkbox', id, name });
    box.checked = field.default === true;
    describe(box);
    return {
      row: el('div', { class: 'input-field input-check' }, box, label, ...(hint ? [hint] : [])),
      control: { name, read: () => box.checked },
    };
  }
  if (choices || (field.type === 'array' && field.items)) {
    const multiple = field.type === 'array';
    const options = choices ?? choicesOf({ enum: field.items?.enum, oneOf: field.items?.anyOf }) ?? [];
    const select = el('select', { id, name });
    select.multiple = multiple;
    if (!multiple) select.append(el('option', { value: '' }, isRequired ? 'Choose…' : '(none)'));
    for (const choice of options) {
      const option = el('option', { value: choice.value }, choice.label);
      option.selected = Array.isArray(field.default)
        ? field.default.includes(choice.value)
        : field.default === choice.value;
      select.append(option);
    }
    if (isRequired) select.required = true;
    describe(select);
    return {
      row: el('div', { class: 'input-field' }, label, select, ...(hint ? [hint] : [])),
      control: {
        name,
        read: () => {
          if (multiple) return [...select.selectedOptions].map((o) => o.value);
          return select.value === '' ? undefined : select.value;
        },
      },
    };
  }
  const numeric = field.type === 'number' || field.type === 'integer';
  const input = el('input', { id, name, type: numeric ? 'number' : textType(field.format) });
  if (numeric) {
    input.step = field.type === 'integer' ? '1' : 'any';
    if (field.minimum !== undefined) input.min = String(field.minimum);
    if (field.maximum !== undefined) input.max = String(field.maximum);
  } else {
    if (field.minLength !== undefined) input.minLength = field.minLength;
    input.maxLength = field.maxLength ?? 2_000;
  }
  if (field.default !== undefined) input.value = String(field.default);
  if (isRequired) input.required = true;
  describe(input);
  return {
    row: el('div', { class: 'input-field' }, label, input, ...(hint ? [hint] : [])),
    control: {
      name,
      read: () => {
        if (input.value === '') return undefined;
        return numeric ? Number(input.value) : input.value;
      },
    },
  };
}

function choicesOf(
  field: Pick<Field, 'enum' | 'enumNames' | 'oneOf'>,
): { value: string; label: string }[] | undefined {
  if (Array.isArray(field.enum)) {
    return field.enum.map((value, index) => ({
      value: String(value),
      label: String(field.enumNames?.[index] ?? value),
    }));
  }
  if (Array.isArray(field.oneOf) && field.oneOf.every((o) => o.const !== undefined)) {
    return field.oneOf.map((o) => ({ value: String(o.const), label: o.title ?? String(o.const) }));
  }
  return undefined;
}

function textType(format: string | undefined): string {
  if (format === 'email') return 'email';
  if (format === 'uri') return 'url';
  if (format === 'date') return 'date';
  if (format === 'date-time') return 'datetime-local';
  return 'text';
}
