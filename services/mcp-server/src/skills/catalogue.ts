/**
 * @module skills/catalogue
 * The Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): every folder under this
 * package's `skills/` that holds a `SKILL.md` is a skill, served by the SDK's `SkillCatalog` as
 * `skill://<name>/…` resources, with `skills/list`, `skills/get` and `resources/directory/read`.
 * Reading the folder is I/O, so it happens once, before serving (`serve.ts`, `main.ts`,
 * `local-server.ts` call `load()`); every server instance then attaches the same catalogue.
 * Tests: `catalogue.test.ts`, `hostile-uris.test.ts`, `shipped-skills.test.ts`.
 *
 * Who may read them: skills are public, read-only documentation, the same for every caller, so
 * whoever may connect may read them: anyone with sign-in off, and any valid token with it on, with
 * no scope (like `adr://` and `cities://`; `scopes.ts`). Never put a secret in a skill.
 *
 * Why no URI can reach another file: the SDK hashes every file of every skill when it loads, and a
 * read or directory read looks the URI's canonical form up in that index; it never builds a path
 * from a URI. Its file adapter also refuses `..` segments and skips a skill that holds a symlink.
 */
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { CacheHint, McpServer } from '@modelcontextprotocol/server';
import type {
  SkillCatalog,
  SkillCatalogChanges,
  SkillWarning,
} from '@modelcontextprotocol/server/ext/skills';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';

/**
 * `services/mcp-server/skills/`. `src/skills/` (vitest, `pnpm dev`) and `dist/skills/` (node, and
 * the bundle, which keeps each module's own URL: `rolldown.config.mjs`) are both two levels below
 * the package, so one relative URL serves every way the server runs, whatever the working folder.
 */
export const DEFAULT_SKILLS_DIR = fileURLToPath(new URL('../../skills/', import.meta.url));

/**
 * A minute: a client may keep a skill for the length of a task, and an edit under `pnpm dev` still
 * shows soon (`reload()` announces only skills added or removed and changed names or descriptions).
 * `public`: every caller gets the same bytes.
 */
export const SKILLS_CACHE_HINT: CacheHint = { ttlMs: 60_000, cacheScope: 'public' };

export interface WorkshopSkills {
  /**
   * Reads the folder; later calls share the first read. Rejects when a file cannot be read; a skill
   * that breaks the naming rules is left out with a warning instead, and so is a missing folder.
   */
  load(): Promise<void>;
  /** Serves the skills on `server`, before it connects. Until `load()` resolves it does nothing. */
  attach(server: McpServer): void;
  /** Reads the folder again (`pnpm dev`, after a save under `skills/`); the old catalogue serves until then. */
  reload(): Promise<SkillCatalogChanges | undefined>;
}

export interface WorkshopSkillsOptions {
  /** The folder of skill folders; defaults to {@link DEFAULT_SKILLS_DIR}. */
  dir?: string;
  /** Hears each skill left out and why, e.g. a `name` that does not match its folder. */
  onWarning: (warning: SkillWarning) => void;
}

export function createWorkshopSkills(options: WorkshopSkillsOptions): WorkshopSkills {
  const { dir = DEFAULT_SKILLS_DIR, onWarning } = options;
  let catalogue: SkillCatalog | undefined;
  let loading: Promise<void> | undefined;
  const load = () => {
    loading ??= loadCatalogue(dir, onWarning).then((loaded) => {
      catalogue = loaded;
    });
    return loading;
  };
  return {
    load,
    attach: (server) => catalogue?.attach(server),
    async reload() {
      await load();
      return catalogue?.reload();
    },
  };
}

/** The catalogue of `dir`, or undefined without such a folder: the server then declares no skills. */
async function loadCatalogue(
  dir: string,
  onWarning: (warning: SkillWarning) => void,
): Promise<SkillCatalog | undefined> {
  const found = await stat(dir).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!found) {
    onWarning({ path: dir, message: 'no skills folder here; serving without the skills extension' });
    return undefined;
  }
  return loadSkills(dir, { cacheHint: SKILLS_CACHE_HINT, onWarning });
}
