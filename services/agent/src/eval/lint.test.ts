import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { toFunctionSpecs } from '../llm/functions.js';
import type { DiscoveredTool, JsonSchema } from '../types.js';
import { type LintFinding, type LintReport, lintFailed, lintTools } from './lint.js';
import { formatLint } from './lint-format.js';
import { formatHint, listedValues } from './lint-hints.js';

const MODEL = 'gpt-4o';

function tool(
  name: string,
  description: string | undefined,
  inputSchema: JsonSchema,
  extra: Partial<DiscoveredTool> = {},
) {
  return { server: 'workshop', name, description, inputSchema, ...extra } satisfies DiscoveredTool;
}

/** A schema strict mode takes as it is: every property required, closed, no constraints. */
function strictReady(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

const CITY = { type: 'string', description: 'City name and optional country, as the user wrote it.' };
const WEATHER = tool(
  'get_weather',
  'Get the current weather and a three-day forecast for one city.',
  strictReady({ city: CITY }),
);

function rules(report: LintReport, name?: string): string[] {
  return report.findings.filter((finding) => !name || finding.tool === name).map((finding) => finding.rule);
}

function only(report: LintReport, rule: LintFinding['rule']): LintFinding {
  const found = report.findings.filter((finding) => finding.rule === rule);
  expect(found).toHaveLength(1);
  return found[0] as LintFinding;
}

describe('lintTools', () => {
  it('finds nothing in a well-described, strict-ready tool', async () => {
    const report = await lintTools([WEATHER], { model: MODEL });
    expect(report.findings).toEqual([]);
    expect(lintFailed(report)).toBe(false);
  });

  it('flags a parameter without a description as an error, nested ones by their path', async () => {
    const schema = strictReady({
      city: { type: 'string' },
      options: {
        ...strictReady({ units: { type: 'string', enum: ['metric', 'imperial'] } }),
        description: 'How to present the answer to the user.',
      },
    });
    const report = await lintTools([tool('get_weather', WEATHER.description, schema)], { model: MODEL });
    const missing = report.findings.filter((finding) => finding.rule === 'missing-parameter-description');
    expect(missing.map((finding) => [finding.level, finding.parameter])).toEqual([
      ['error', 'city'],
      ['error', 'options.units'],
    ]);
    expect(missing[0]?.message).toContain('"city"');
    expect(lintFailed(report)).toBe(true);
  });

  it('takes a parameter description from a referenced definition', async () => {
    const schema = {
      ...strictReady({ place: { $ref: '#/$defs/place' } }),
      $defs: { place: { type: 'string', description: 'City name and optional country code.' } },
    };
    const report = await lintTools([tool('get_weather', WEATHER.description, schema)], { model: MODEL });
    expect(rules(report)).not.toContain('missing-parameter-description');
  });

  it('flags a tool without description or title as an error, and a short one as a warning', async () => {
    const report = await lintTools(
      [
        tool('mystery', undefined, strictReady({})),
        tool('weather', 'Gets weather.', strictReady({})),
        tool('titled', '  ', strictReady({}), { title: 'Titled tool' }),
        tool(
          'terse_param',
          WEATHER.description,
          strictReady({ city: { type: 'string', description: 'City' } }),
        ),
      ],
      { model: MODEL },
    );
    expect(report.findings.map((finding) => [finding.tool, finding.level, finding.rule])).toEqual([
      ['mystery', 'error', 'missing-description'],
      ['weather', 'warning', 'short-description'],
      ['titled', 'warning', 'short-description'],
      ['terse_param', 'warning', 'short-parameter-description'],
    ]);
    expect(report.findings[2]?.message).toContain('title (it has no description)');
  });

  it('warns about two tools a model will confuse, naming both', async () => {
    const schema = strictReady({ query: { type: 'string', description: 'Words to look for in the notes.' } });
    const report = await lintTools(
      [
        tool(
          'search_notes',
          "Search the user's saved notes by keyword and return the matching notes.",
          schema,
        ),
        WEATHER,
        tool('find_notes', "Find the user's saved notes by keyword and return every matching note.", schema),
      ],
      { model: MODEL },
    );
    const pair = only(report, 'confusable-tools');
    expect(pair).toMatchObject({ level: 'warning', tool: 'search_notes', other: 'find_notes' });
    expect(pair.message).toContain('"search_notes" and "find_notes"');
    expect(pair.message).toContain('keyword');
    expect(lintFailed(report)).toBe(false);
  });

  it('leaves tools that share a topic but not a purpose alone', async () => {
    const id = strictReady({ id: { type: 'integer', description: 'The id of the task, from list_tasks.' } });
    const report = await lintTools(
      [
        tool(
          'complete_task',
          'Mark a task on the user’s task list as done, by id. Get the id from list_tasks.',
          id,
        ),
        tool(
          'delete_task',
          'Permanently delete a task from the user’s list; this cannot be undone. To finish a task, use complete_task.',
          id,
        ),
        tool(
          'list_tasks',
          'List the user’s tasks with their ids, oldest first, to find the id other task tools need.',
          strictReady({}),
        ),
      ],
      { model: MODEL },
    );
    expect(rules(report)).not.toContain('confusable-tools');
  });

  it('hints at an enum when the description lists the values and the schema does not', async () => {
    const report = await lintTools(
      [
        tool(
          'convert',
          WEATHER.description,
          strictReady({
            units: { type: 'string', description: 'Unit system, one of metric, imperial or kelvin.' },
            order: { type: ['string', 'null'], description: "Sort order: 'asc' or 'desc'." },
            listed: { type: 'string', enum: ['open', 'done'], description: 'Which tasks: "open" or "done".' },
            city: { type: 'string', description: 'City name, e.g. "Oslo", "Bergen, Norway" or "Paris, FR".' },
          }),
        ),
      ],
      { model: MODEL },
    );
    const hints = report.findings.filter((finding) => finding.rule === 'enum-hint');
    expect(hints.map((finding) => finding.parameter)).toEqual(['units', 'order']);
    expect(hints[0]?.message).toContain('"metric", "imperial", "kelvin"');
    expect(hints[1]?.message).toContain('"asc", "desc"');
  });

  it('hints at a format for dates, times, email addresses and URLs that declare none', async () => {
    const report = await lintTools(
      [
        tool(
          'plan',
          WEATHER.description,
          strictReady({
            dueDate: { type: 'string', description: 'When the task is due.' },
            contact_email: { type: 'string', description: 'Who to tell when it is done.' },
            start: { type: 'string', description: 'Start day as YYYY-MM-DD, in UTC.' },
            homepage: { type: 'string', format: 'uri', description: 'The project web site.' },
            timezone: { type: 'string', description: 'IANA time zone name like Europe/Oslo.' },
            stamp: { type: 'string', pattern: '^\\d+$', description: 'Unix seconds since 1970.' },
          }),
        ),
      ],
      { model: MODEL },
    );
    const hints = report.findings.filter((finding) => finding.rule === 'format-hint');
    expect(hints.map((finding) => finding.parameter)).toEqual(['dueDate', 'contact_email', 'start']);
    expect(hints[0]?.message).toContain('format: "date"');
    expect(hints[1]?.message).toContain('format: "email"');
  });

  it('warns about a schema strict mode cannot take, with the reason', async () => {
    const schema = {
      type: 'object',
      properties: {
        target: {
          description: 'A city name or a pair of coordinates.',
          oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'number' } }],
        },
      },
      required: ['target'],
    };
    const report = await lintTools([tool('locate', WEATHER.description, schema)], { model: MODEL });
    const finding = only(report, 'not-strict');
    expect(finding.level).toBe('warning');
    expect(finding.message).toContain('"oneOf" cannot be expressed in strict mode');
    expect(rules(report)).not.toContain('strict-rewrite');
  });

  it('notes what strict mode rewrote: optional fields, constraints, extra properties, annotations', async () => {
    const schema = {
      type: 'object',
      properties: {
        city: { ...CITY, minLength: 1, maxLength: 100 },
        days: {
          type: 'integer',
          description: 'Forecast days, 1 to 7.',
          minimum: 1,
          maximum: 7,
          deprecated: true,
        },
        id: {
          type: 'integer',
          description: 'The id, a positive whole number.',
          maximum: Number.MAX_SAFE_INTEGER,
        },
      },
      required: ['city', 'id'],
    };
    const report = await lintTools([tool('get_weather', WEATHER.description, schema)], { model: MODEL });
    const note = only(report, 'strict-rewrite');
    expect(note.level).toBe('note');
    expect(note.message).toContain('optional days must be sent');
    expect(note.message).toContain(
      'city (minLength, maxLength), days (minimum, maximum) reach the model only as words',
    );
    expect(note.message).toContain('extra properties are refused');
    expect(note.message).toContain('not told of days (deprecated)');
    // zod's .int() bound is noise, as strict-schema.ts treats it.
    expect(note.message).not.toContain('id (maximum)');
    expect(lintFailed(report)).toBe(false);
  });

  it('counts each tool as gpt-tokenizer counts its function JSON, with the encoding named', async () => {
    const tools = [
      WEATHER,
      tool('get_time', 'Get the current local date and time in an IANA time zone.', strictReady({})),
    ];
    const report = await lintTools(tools, { model: MODEL });
    const specs = toFunctionSpecs(tools).functions;
    const expected = specs.map((spec) =>
      o200kCount(
        JSON.stringify({
          type: 'function',
          function: {
            name: spec.name,
            description: spec.description,
            parameters: spec.parameters,
            strict: spec.strict,
          },
        }),
      ),
    );
    expect(report.encoding).toBe('o200k_base');
    expect(report.tokens.perTool).toEqual([
      { tool: 'get_weather', tokens: expected[0] },
      { tool: 'get_time', tokens: expected[1] },
    ]);
    expect(report.tokens.total).toBe((expected[0] ?? 0) + (expected[1] ?? 0));
    expect((await lintTools(tools, { model: 'gpt-3.5-turbo' })).encoding).toBe('cl100k_base');
  });

  it('handles an empty tool list', async () => {
    const report = await lintTools([], { model: MODEL });
    expect(report).toEqual({
      model: MODEL,
      encoding: 'o200k_base',
      findings: [],
      tokens: { perTool: [], total: 0 },
      tools: 0,
    });
    expect(formatLint(report)).toMatch(/0 errors, 0 warnings, 0 notes$/);
  });

  it('leaves out app-only tools, as the agent does', async () => {
    const appOnly = tool('board_refresh', undefined, strictReady({ x: { type: 'string' } }), {
      ui: { visibility: ['app'] },
    });
    const report = await lintTools([WEATHER, appOnly], { model: MODEL });
    expect(report.tools).toBe(1);
    expect(report.findings).toEqual([]);
  });

  it('survives hostile input: schemas that are not objects, odd names, huge and special-token text', async () => {
    const hostile = [
      tool('nul', WEATHER.description, null as unknown as JsonSchema),
      tool('list', WEATHER.description, [] as unknown as JsonSchema),
      tool('text', WEATHER.description, 'object' as unknown as JsonSchema),
      tool(
        'odd name/with spaces\nand a newline',
        'Reads <|endoftext|> aloud to the user, slowly and clearly.',
        strictReady({}),
      ),
      tool('東京の天気', 'x '.repeat(60_000), strictReady({})),
      tool('deep', WEATHER.description, nested(200)),
    ];
    const report = await lintTools(hostile, { model: MODEL });
    expect(
      report.findings.filter((finding) => finding.rule === 'invalid-schema').map((f) => [f.tool, f.level]),
    ).toEqual([
      ['nul', 'error'],
      ['list', 'error'],
      ['text', 'error'],
    ]);
    expect(report.findings.find((finding) => finding.rule === 'invalid-schema')?.message).toContain(
      'is null',
    );
    expect(rules(report, '東京の天気')).toContain('truncated-description');
    expect(report.tokens.perTool).toHaveLength(3);
    // The huge description is counted as sent, cut to 1024 characters, not as written.
    expect(report.tokens.perTool[1]?.tokens).toBeLessThan(1000);
    const text = formatLint(report);
    expect(text).toContain('odd name/with spaces\\u000aand a newline');
    expect(text).toMatch(/3 errors, 2 warnings, 0 notes$/);
  });
});

/** An object schema `depth` levels deep, each level described. */
function nested(depth: number): JsonSchema {
  let schema: JsonSchema = { type: 'string', description: 'The innermost value of all.' };
  for (let level = 0; level < depth; level += 1) {
    schema = { ...strictReady({ inner: schema }), description: `Level ${level} of the nesting.` };
  }
  return schema;
}

describe('listedValues', () => {
  it.each([
    ['one of a, b or c', ['a', 'b', 'c']],
    ["'x' or 'y'", ['x', 'y']],
    ['Pick “fast”, “slow” or “auto”.', ['fast', 'slow', 'auto']],
    ['Output as json|yaml|text.', ['json', 'yaml', 'text']],
  ])('reads %s', (description, values) => {
    expect(listedValues(description)).toEqual(values);
  });

  it.each([
    'City name, e.g. "Oslo", "Bergen, Norway" or "Paris, FR".',
    'Use explicit * (write "2 * pi", not "2pi").',
    "Returns one of the user's saved notes.",
    "The user's task list, which is kept between conversations.",
  ])('sees no list in %s', (description) => {
    expect(listedValues(description)).toBeUndefined();
  });
});

describe('formatHint', () => {
  it('reads the name first, then telling phrases', () => {
    expect(formatHint('created_at_datetime', '')?.format).toBe('date-time');
    expect(formatHint('callback', 'The URL to post the result to.')?.format).toBe('uri');
    expect(formatHint('when', 'An ISO 8601 timestamp.')?.format).toBe('date-time');
    expect(formatHint('alarm.time', 'When to ring.')?.format).toBe('time');
    expect(formatHint('time_zone', 'IANA zone.')).toBeUndefined();
    expect(formatHint('title', 'What to do, as one line.')).toBeUndefined();
  });
});
