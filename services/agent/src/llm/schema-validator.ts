/**
 * @module llm/schema-validator
 * Checks a model's arguments against a tool's ORIGINAL `inputSchema` with ajv, and words the
 * problems so the model can fix its next call (`/days: must be <= 16`). Used by `functions.ts`;
 * test: `schema-validator.test.ts`.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../types.js';

/** The model fixes one thing at a time; a wall of 200 anyOf branch errors only confuses it. */
export const MAX_VALIDATION_MESSAGES = 10;
/** An allowed-values list longer than this is cut short in a message. */
const MAX_LISTED_VALUES = 20;

/** Returns readable problems, `[]` when the value is valid or the schema cannot be checked. */
export type SchemaValidator = (value: unknown) => string[];

export type Dialect = '2020-12' | '2019-09' | 'draft-07';
type AnyAjv = Ajv | Ajv2019 | Ajv2020;

const AJV_OPTIONS: Options = {
  // Tools come from servers we do not control: an unknown keyword must not stop the agent.
  strict: false,
  allErrors: true,
  // ajv-formats is not a dependency; the server checks formats itself, so they are left to it.
  validateFormats: false,
  // Two tools may use the same `$id`; each schema is compiled on its own, never registered.
  addUsedSchema: false,
  // The agent may speak MCP over stdio, where nothing but protocol may reach stdout.
  logger: false,
};

/**
 * A factory that compiles each schema once, on first use, with the ajv matching its `$schema`
 * (2020-12 when it names none, as MCP specifies). A schema ajv cannot compile is not checked here:
 * its validator returns `[]` and the server decides, which beats refusing every call to the tool.
 */
export function createSchemaValidatorFactory(): (schema: JsonSchema) => SchemaValidator {
  const engines = new Map<Dialect, AnyAjv>();
  const engineFor = (dialect: Dialect): AnyAjv => {
    let engine = engines.get(dialect);
    if (!engine) {
      engine = createEngine(dialect);
      engines.set(dialect, engine);
    }
    return engine;
  };

  return (schema) => {
    let compiled: ValidateFunction | null | undefined;
    return (value) => {
      if (compiled === undefined) compiled = compile(engineFor(dialectOf(schema)), schema);
      if (compiled === null || compiled(value)) return [];
      return formatValidationErrors(compiled.errors ?? []);
    };
  };
}

/** Which JSON Schema dialect `$schema` names; unknown or missing means 2020-12. */
export function dialectOf(schema: JsonSchema): Dialect {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2019-09')) return '2019-09';
  if (/draft-0[4-7]/.test(declared)) return 'draft-07';
  return '2020-12';
}

/** ajv's errors as `/path: message`, with the detail ajv keeps in `params`, deduplicated and bounded. */
export function formatValidationErrors(errors: readonly ErrorObject[]): string[] {
  const messages = [...new Set(errors.map(formatError))];
  if (messages.length <= MAX_VALIDATION_MESSAGES) return messages;
  const hidden = messages.length - MAX_VALIDATION_MESSAGES;
  return [...messages.slice(0, MAX_VALIDATION_MESSAGES), `(${hidden} more problems not shown)`];
}

function formatError(error: ErrorObject): string {
  const where = error.instancePath === '' ? '/' : error.instancePath;
  const message = error.message ?? `fails "${error.keyword}"`;
  const params: Record<string, unknown> = error.params;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where}: ${message}: ${JSON.stringify(params.additionalProperty)}`;
    case 'enum':
      return `${where}: ${message}: ${listValues(params.allowedValues)}`;
    case 'const':
      return `${where}: must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${where}: ${message}`;
  }
}

function listValues(values: unknown): string {
  if (!Array.isArray(values)) return JSON.stringify(values);
  const shown = values.slice(0, MAX_LISTED_VALUES).map((value) => JSON.stringify(value));
  if (values.length > MAX_LISTED_VALUES) shown.push('...');
  return shown.join(', ');
}

function createEngine(dialect: Dialect): AnyAjv {
  if (dialect === '2019-09') return new Ajv2019(AJV_OPTIONS);
  if (dialect === 'draft-07') return new Ajv(AJV_OPTIONS);
  return new Ajv2020(AJV_OPTIONS);
}

function compile(engine: AnyAjv, schema: JsonSchema): ValidateFunction | null {
  // The engine already matches the dialect; ajv would look `$schema` up and fail on drafts it lacks (04, 06).
  const { $schema: _dialect, ...rest } = schema;
  try {
    return engine.compile(rest);
  } catch {
    return null;
  }
}
