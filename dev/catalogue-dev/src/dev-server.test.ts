/**
 * Which saves reload the catalogue under `pnpm dev` (`concernsCatalogue` in `dev-server.ts`): its
 * sources, its views and its skills, never a test, build output or a file outside it. What a
 * reload then does is `dev-server.e2e.test.ts`'s business.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { concernsCatalogue } from './dev-server.js';

const ROOT = path.join(path.sep, 'repo', 'services', 'mcp-server');
const at = (relative: string) => path.join(ROOT, ...relative.split('/'));

describe('concernsCatalogue', () => {
  it.each([
    'src/tools/echo-text.ts',
    'src/resources/index.ts',
    'views/weather/forecast/index.html',
    'skills/add-a-tool/SKILL.md',
    'skills/add-a-tool/references/checklist.md',
  ])('reloads for %s', (file) => {
    expect(concernsCatalogue(ROOT, at(file))).toBe(true);
  });

  it.each([
    'src/tools/echo-text.test.ts',
    'src/test-support/in-memory.ts',
    'dist/index.js',
    'data/tasks.db',
    'README.md',
    '../agent/src/loop.ts',
  ])('ignores %s', (file) => {
    expect(concernsCatalogue(ROOT, at(file))).toBe(false);
  });
});
