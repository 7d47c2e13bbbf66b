/**
 * The main entry (`src/index.ts`) and everything it imports at load time name no Postgres library:
 * a SQLite server never loads `pg`, kysely or pg-boss. They come in only through `import()` on first
 * use, or through the `./postgres` entry. Reads the sources; loads nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));
/** Static `import … from` and `export … from`, but not `import type` (erased) nor `import()` (lazy). */
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s+'([^']+)'/gm;

/** Every package a module reaches through static imports, following this package's own files. */
function staticPackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier = ''] of fs.readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier.startsWith('.'))
        visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(path.join(SRC, entry));
  return packages;
}

describe('the main entry', () => {
  it('imports no Postgres library before it is needed', () => {
    const packages = staticPackages('index.ts');
    // The walk does reach the entry's dependencies (SQLite itself is loaded with require(), on open).
    expect(packages).toContain('@mcp-workshop/shared');
    for (const name of ['pg', 'pg-boss', 'kysely']) expect(packages).not.toContain(name);
  });

  it('is what brings them in through ./postgres', () => {
    const packages = staticPackages('postgres.ts');
    for (const name of ['pg', 'pg-boss', 'kysely']) expect(packages).toContain(name);
  });
});
