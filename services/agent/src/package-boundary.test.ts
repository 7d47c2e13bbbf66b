/**
 * The agent is one deployable service: it reaches the MCP server and the demo model over their
 * protocols only. Neither may come back as a dependency or an import, in code or in tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The MCP server is the catalogue and the host that runs it (`node dist/index.js`); then the demo model. */
const OTHER_SERVICES = ['@mcp-workshop/mcp-server', '@mcp-workshop/mcp-host', '@mcp-workshop/demo-model'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

describe('the agent package', () => {
  it('lists neither the MCP server nor the demo model among its dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const listed = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap(
      (field) => Object.keys(manifest[field] ?? {}),
    );
    for (const name of OTHER_SERVICES) expect(listed).not.toContain(name);
  });

  it('imports neither of them anywhere, tests and the web page included', () => {
    const offenders = [...sourceFiles(join(PACKAGE_ROOT, 'src')), ...sourceFiles(join(PACKAGE_ROOT, 'web'))]
      .filter((file) => file !== fileURLToPath(import.meta.url))
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        return OTHER_SERVICES.some((name) => text.includes(`'${name}`) || text.includes(`"${name}`));
      })
      .map((file) => relative(PACKAGE_ROOT, file));
    expect(offenders).toEqual([]);
  });
});
