/**
 * @module read-skill
 * `read_skill`: the agent's own function, offered to the model beside the MCP tools whenever a
 * connected server publishes skills (`io.modelcontextprotocol/skills`). Its description names each
 * skill and says when to use it; its answer is the skill's `SKILL.md`, or another file of the skill
 * that `SKILL.md` names, read through the hub and checked against the digest the server listed
 * (`mcp/skills.ts`). So a skill costs the model one line until it is needed. `loop.ts` runs the
 * calls and records them like tool calls. Test: `read-skill.test.ts`.
 */
import type { CallToolResult } from '@mcp-workshop/shared';
import { z } from 'zod';
import { MAX_FUNCTION_DESCRIPTION_LENGTH } from './llm/functions.js';
import type { FunctionSpec } from './llm/provider.js';
import { classifyFailure } from './mcp/hub.js';
import { SKILL_REQUEST_TIMEOUT_MS, SkillFileError } from './mcp/skills.js';
import type { ToolCallProblem } from './trace.js';
import type { McpHub, ServerSkill } from './types.js';

export const READ_SKILL_FUNCTION = 'read_skill';

/** A path inside a skill is short; anything longer is not one of its files. */
const MAX_FILE_PATH_CHARS = 300;
/** Files named in the `file` enum, across all skills: enough for real skills, bounded for the request. */
const MAX_FILE_CHOICES = 100;

const INTRO =
  'Read a skill: instructions an MCP server publishes for one kind of task. When a request matches a ' +
  'skill below, read it before you act and follow it. Returns the markdown of its SKILL.md, or of another ' +
  'file of the skill that SKILL.md names (pass its path as file). Skills:';

/** One call of the function, ready to run: what the trace shows at its start, and the read itself. */
export interface SkillRead {
  server?: string;
  /** The `skill://` URI it reads (the trace's `tool`), once the arguments name a skill. */
  uri?: string;
  /** The arguments as the model sent them, parsed when they were JSON. */
  arguments: unknown;
  run(): Promise<{ result: CallToolResult } | { problem: ToolCallProblem }>;
}

export interface SkillFunction {
  readonly spec: FunctionSpec;
  prepare(rawArguments: string, hub: McpHub, signal?: AbortSignal): SkillRead;
}

/**
 * The function for these skills; undefined when there are none, or when an MCP tool already has the
 * name (`taken`): the server's own tool keeps it, and its skills are then not offered.
 */
export function skillFunction(
  skills: readonly ServerSkill[],
  taken: (name: string) => boolean,
): SkillFunction | undefined {
  if (skills.length === 0 || taken(READ_SKILL_FUNCTION)) return undefined;
  const byChoice = new Map(skills.map((skill) => [choiceOf(skill, skills), skill]));
  const choices = [...byChoice.keys()];
  const args = z.object({
    skill: z.string(),
    file: z.string().max(MAX_FILE_PATH_CHARS).nullish(),
  });
  const spec: FunctionSpec = {
    name: READ_SKILL_FUNCTION,
    description: describe([...byChoice].map(([choice, skill]) => `- ${choice}: ${skill.description}`)),
    parameters: {
      type: 'object',
      properties: {
        skill: { type: 'string', enum: choices, description: 'The skill to read.' },
        file: fileParameter(skills),
      },
      required: ['skill', 'file'],
      additionalProperties: false,
    },
    strict: true,
  };
  return {
    spec,
    prepare(rawArguments, hub, signal) {
      const parsed = parseJson(rawArguments);
      const checked = args.safeParse(parsed);
      const skill = checked.success ? byChoice.get(checked.data.skill) : undefined;
      if (!checked.success || !skill) {
        const message = checked.success
          ? `There is no skill "${checked.data.skill}". Use one of: ${choices.join(', ')}.`
          : `Invalid arguments for ${READ_SKILL_FUNCTION}: pass {"skill": one of ${choices.join(', ')}, "file": null}.`;
        const problem: ToolCallProblem = { kind: 'invalid_arguments', message, problems: [message] };
        return { arguments: parsed, run: async () => ({ problem }) };
      }
      const file = checked.data.file?.trim() || undefined;
      return {
        server: skill.server,
        uri: file ? `${skill.uri.slice(0, -'SKILL.md'.length)}${file}` : skill.uri,
        arguments: parsed,
        async run() {
          try {
            const read = await hub.readSkill(skill.server, skill.uri, file, signal);
            return { result: { content: [{ type: 'text', text: read.text }], isError: false } };
          } catch (error) {
            if (error instanceof SkillFileError) {
              return {
                problem: { kind: 'invalid_arguments', message: error.message, problems: [error.message] },
              };
            }
            return {
              problem: classifyFailure(
                error,
                { signal, timeoutMs: SKILL_REQUEST_TIMEOUT_MS },
                READ_SKILL_FUNCTION,
              ),
            };
          }
        },
      };
    },
  };
}

/**
 * `file`: null for SKILL.md, or one of the other files the skills list, so a model cannot make a
 * path up (strict mode holds it to the enum). Past {@link MAX_FILE_CHOICES} it is any short path,
 * and the server's listing still decides (`mcp/skills.ts`).
 */
function fileParameter(skills: readonly ServerSkill[]): Record<string, unknown> {
  const description =
    'Another file of the skill, one its SKILL.md names, as a path inside the skill; null for SKILL.md itself.';
  const files = [...new Set(skills.flatMap((skill) => skill.files.filter((file) => file !== 'SKILL.md')))];
  if (files.length === 0) return { type: 'null', description };
  if (files.length > MAX_FILE_CHOICES) return { type: ['string', 'null'], description };
  return { anyOf: [{ type: 'string', enum: files.sort() }, { type: 'null' }], description };
}

/** A skill's name, or `<server>/<name>` when two servers publish a skill of that name. */
function choiceOf(skill: ServerSkill, all: readonly ServerSkill[]): string {
  const shared = all.some((other) => other !== skill && other.name === skill.name);
  return shared ? `${skill.server}/${skill.name}` : skill.name;
}

/** The intro, then one line per skill while they fit OpenAI's limit; the enum still names every one. */
function describe(lines: readonly string[]): string {
  let text = INTRO;
  for (const [index, line] of lines.entries()) {
    const more = `\n- (${lines.length - index} more: see the skill parameter)`;
    const next = `${text}\n${line}`;
    // Room stays for a "more" line while skills remain after this one.
    const room = index === lines.length - 1 ? 0 : more.length;
    if (next.length + room > MAX_FUNCTION_DESCRIPTION_LENGTH) return `${text}${more}`;
    text = next;
  }
  return text;
}

/** Models send "" or "null" for no arguments; anything unparsable is kept as the text it was. */
function parseJson(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
