/**
 * @module mcp/skills
 * A server's skills (the Skills extension, SEP-2640, `io.modelcontextprotocol/skills`): listed once
 * when the agent connects, and read on demand, both through the official client's `SkillsClient`.
 * It checks every file it reads against the size and SHA-256 digest the server's listing
 * published, so the model never reads bytes the listing did not vouch for. The hub holds one per
 * server; `read-skill.ts` offers them to the model. Test: `read-skill.test.ts`.
 */
import type { Client } from '@modelcontextprotocol/client';
import { type Skill, SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import type { SkillSummary, SkillText } from '../types.js';
import type { McpLogger } from './connect.js';
import { describeCause } from './retry.js';

/** Listing, and each read, must answer within this: a skill is a few kilobytes of text. */
export const SKILL_REQUEST_TIMEOUT_MS = 15_000;

/**
 * Skills kept per server. Their names become one function's `enum` and their descriptions its
 * description, so a server listing thousands must not flood every request to the model.
 */
export const MAX_SKILLS_PER_SERVER = 50;

/** One server's skills: the entries it listed, and a way to read their files. */
export interface ServerSkills {
  readonly entries: readonly Skill[];
  /**
   * Reads `file` (a path inside the skill, e.g. `references/checklist.md`; default `SKILL.md`) and
   * verifies it. Rejects when it is not listed, fails the check, is not text, or the server fails.
   */
  read(entry: Skill, file: string | undefined, signal?: AbortSignal): Promise<SkillText>;
}

/** A file the model asked for that the skill does not have: the model can fix it, so it says which it has. */
export class SkillFileError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No skills, for a server that declares none (and tests that build a connection by hand). */
export const NO_SKILLS: ServerSkills = {
  entries: [],
  read: () => Promise.reject(new Error('This server declares no skills.')),
};

/**
 * Lists the skills of a connected server, when it declares the extension. A listing that fails is
 * not a failed connection: the tools still work, so it is logged and the server offers no skills.
 */
export async function discoverSkills(
  client: Client,
  server: string,
  logger: McpLogger,
  signal?: AbortSignal,
): Promise<ServerSkills> {
  // skipInvalid: one bad entry must not hide the good ones; the bad ones are logged below.
  const skills = new SkillsClient(client, { skipInvalid: true });
  if (!skills.supported) return NO_SKILLS;
  const options = { timeout: SKILL_REQUEST_TIMEOUT_MS, ...(signal && { signal }) };
  let entries: Skill[] = [];
  try {
    const listing = await skills.list(undefined, options);
    for (const bad of listing.invalid) {
      logger.warn(
        { server, uri: bad.uri, reason: bad.reason },
        'the server lists an invalid skill; left out',
      );
    }
    entries = listing.skills.slice(0, MAX_SKILLS_PER_SERVER);
    if (listing.skills.length > entries.length) {
      logger.warn(
        { server, listed: listing.skills.length, kept: entries.length },
        'too many skills; kept the first',
      );
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    logger.warn({ server, reason: describeCause(error) }, 'could not list the skills; offering none');
  }
  return {
    entries,
    async read(entry, file, readSignal) {
      const read = await skills
        .read(entry, file, { timeout: SKILL_REQUEST_TIMEOUT_MS, ...(readSignal && { signal: readSignal }) })
        .catch((error: unknown) => {
          // Checked against the listing before any request: `../` and the like never leave the client.
          if (error instanceof SkillVerificationError && error.reason === 'unlisted') {
            const files = filesOf(entry).join(', ');
            const message = `The skill ${entry.frontmatter.name} has no file "${file}". Its files: ${files}.`;
            throw new SkillFileError(message, { cause: error });
          }
          throw error;
        });
      if (read.text === undefined) {
        throw new Error(
          `${read.uri} is not text (${read.mimeType ?? 'no type given'}), so it cannot be shown.`,
        );
      }
      return { uri: read.uri, text: read.text };
    },
  };
}

/** The skill's files as paths inside its folder (`SKILL.md`, `references/checklist.md`). */
export function filesOf(entry: Skill): string[] {
  if (entry.resources === 'dynamic') return ['SKILL.md'];
  const root = entry.uri.slice(0, entry.uri.length - 'SKILL.md'.length);
  return entry.resources.map((file) => (file.uri.startsWith(root) ? file.uri.slice(root.length) : file.uri));
}

/** What the agent shows of a skill, and tells the model, before anyone reads it. */
export function summarizeSkill(entry: Skill): SkillSummary {
  return { name: entry.frontmatter.name, description: entry.frontmatter.description, uri: entry.uri };
}
