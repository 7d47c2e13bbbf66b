/**
 * @module resources/adr
 * `adr://{slug}`: the repository's architecture decision records (`adr/NNN-*.md`), so a model can
 * read why the project is built the way it is. Slugs are checked against a strict pattern and the
 * real path must stay inside the ADR folder, so a URI can never name another file.
 * Test: `adr.test.ts`.
 */
import { constants } from 'node:fs';
import { type FileHandle, open, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CacheHint,
  type McpServer,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { MARKDOWN_MIME, markdownContents } from './contents.js';

export const ADR_URI_TEMPLATE = 'adr://{slug}';

/**
 * The repository's `adr/` folder. `src/resources/` (vitest) and `dist/resources/` (node) are both
 * four levels below the repository root, so one relative URL serves both.
 */
export const DEFAULT_ADR_DIR = fileURLToPath(new URL('../../../../adr/', import.meta.url));

/** `NNN-words`: three digits, then lowercase words joined by hyphens. Nothing else reaches the file system. */
const SLUG_PATTERN = /^[0-9]{3}-[a-z0-9-]{1,96}$/;
const FILE_PATTERN = /^([0-9]{3}-[a-z0-9-]{1,96})\.md$/;

/** A project has tens of ADRs; the cap only stops a stray folder from flooding resources/list. */
const MAX_ADRS = 500;
/** The longest ADR is a few kB; anything far bigger is not an ADR and is refused. */
export const MAX_ADR_BYTES = 256 * 1024;
/** Enough of the file to find its `# ` heading and status line for resources/list. */
const HEADER_BYTES = 1024;
const MAX_COMPLETIONS = 100;

/** Decisions change rarely; ten minutes of cache is harmless and saves re-reads. */
const ADR_CACHE_HINT: CacheHint = { ttlMs: 600_000, cacheScope: 'public' };

export interface AdrOptions {
  /** The ADR folder; defaults to `DEFAULT_ADR_DIR`. Tests point it at a temporary folder. */
  dir?: string;
}

export function adrUri(slug: string): string {
  return `adr://${slug}`;
}

/** The folder's real path, or undefined when it does not exist (e.g. an image built without it). */
export async function resolveAdrDir(dir: string = DEFAULT_ADR_DIR): Promise<string | undefined> {
  try {
    const real = await realpath(dir);
    return (await stat(real)).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

interface AdrFile {
  slug: string;
  /** Real path, checked by `adrFile`. */
  file: string;
}

/**
 * Every `NNN-*.md` in `dir` that a read would serve, sorted by slug; none when the folder is
 * missing. Listing and completion use this, so they never offer a URI a read would refuse.
 */
async function listAdrFiles(dir: string | undefined): Promise<AdrFile[]> {
  if (!dir) return [];
  const names = await readdir(dir).catch(() => [] as string[]);
  const slugs = names
    .map((name) => FILE_PATTERN.exec(name)?.[1])
    .filter((slug): slug is string => slug !== undefined)
    .sort()
    .slice(0, MAX_ADRS);
  const files = await Promise.all(slugs.map(async (slug) => ({ slug, file: await adrFile(dir, slug) })));
  return files.filter((entry): entry is AdrFile => entry.file !== undefined);
}

/** The slugs `adr://{slug}` serves from `dir`. */
export async function listAdrSlugs(dir: string | undefined): Promise<string[]> {
  return (await listAdrFiles(dir)).map((entry) => entry.slug);
}

/**
 * The `# ` heading and `Status:` line from the start of an ADR, for its title and description;
 * empty when the file cannot be read (a listing never fails because of one odd file).
 */
async function readHeader(file: string): Promise<{ title?: string; status?: string }> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, constants.O_RDONLY);
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEADER_BYTES), 0, HEADER_BYTES, 0);
    const lines = buffer.subarray(0, bytesRead).toString('utf8').split('\n');
    const title = lines
      .find((line) => line.startsWith('# '))
      ?.slice(2)
      .trim();
    // "- **Status:** accepted (2026-11-21)" -> "accepted (2026-11-21)"
    const status = lines
      .find((line) => /^\W*status\b/i.test(line))
      ?.replace(/^\W*status\W*/i, '')
      .trim();
    return { title, status };
  } catch {
    return {};
  } finally {
    await handle?.close();
  }
}

/** `value` if it is a well-formed ADR slug, else undefined. */
export function parseSlug(value: unknown): string | undefined {
  return typeof value === 'string' && SLUG_PATTERN.test(value) ? value : undefined;
}

/**
 * The real path of the ADR `slug` names, or undefined when the slug is malformed, the file is
 * missing, or its real path (after symlinks) leaves the folder.
 */
async function adrFile(dir: string | undefined, value: unknown): Promise<string | undefined> {
  const slug = parseSlug(value);
  if (!dir || !slug) return undefined;
  try {
    const file = await realpath(path.join(dir, `${slug}.md`));
    if (path.dirname(file) !== dir) return undefined;
    const info = await stat(file);
    return info.isFile() && info.size <= MAX_ADR_BYTES ? file : undefined;
  } catch {
    return undefined;
  }
}

function buildAdrTemplate(dir: () => Promise<string | undefined>): ResourceTemplate {
  return new ResourceTemplate(ADR_URI_TEMPLATE, {
    list: async () => {
      const adrs = await listAdrFiles(await dir());
      const resources = await Promise.all(
        adrs.map(async ({ slug, file }) => {
          const { title, status } = await readHeader(file);
          return {
            uri: adrUri(slug),
            name: `adr-${slug}`,
            title: title ? `ADR ${title}` : `ADR ${slug}`,
            description: status
              ? `Architecture decision record. Status: ${status}`
              : 'Architecture decision record.',
            mimeType: MARKDOWN_MIME,
          };
        }),
      );
      return { resources };
    },
    complete: {
      slug: async (value) =>
        (await listAdrSlugs(await dir())).filter((slug) => slug.startsWith(value)).slice(0, MAX_COMPLETIONS),
    },
  });
}

/**
 * The template for the default folder, built on first use and shared by every server instance
 * (`createMcpServer` runs per session and per request). A custom folder (tests) gets its own.
 */
let defaultAdrTemplate: ResourceTemplate | undefined;

export function registerAdrResources(server: McpServer, options: AdrOptions = {}): void {
  const dir = () => resolveAdrDir(options.dir);
  let template = options.dir === undefined ? defaultAdrTemplate : undefined;
  if (!template) {
    template = buildAdrTemplate(dir);
    if (options.dir === undefined) defaultAdrTemplate = template;
  }
  server.registerResource(
    'adr',
    template,
    {
      title: 'Architecture decision record',
      description:
        "One of this project's architecture decision records, in markdown: the context, the decision and its consequences. resources/list names every one, e.g. adr://001-dynamic-tool-discovery.",
      mimeType: MARKDOWN_MIME,
      cacheHint: ADR_CACHE_HINT,
    },
    async (uri, { slug }) => {
      const file = await adrFile(await dir(), slug);
      if (!file) {
        throw new ResourceNotFoundError(
          uri.href,
          `No ADR at ${uri.href}: use adr://NNN-name with a slug from resources/list, e.g. adr://001-dynamic-tool-discovery.`,
        );
      }
      return markdownContents(uri.href, await readFile(file, 'utf8'));
    },
  );
}
