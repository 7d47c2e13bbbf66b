/**
 * @module module-loader.test
 * `createCatalogueLoader` on a scratch package beside the catalogue: after a save and `reset()` the
 * next import runs the new code, while the packages a catalogue depends on stay the one instance
 * Node loaded (so `ToolError` is the same class before and after).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogueLoader, createCatalogueLoader } from './module-loader.js';

const CATALOGUE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../services/mcp-server');
let scratch: string;
let loader: CatalogueLoader;

const source = (n: number) =>
  `import { ToolError } from '@mcp-workshop/shared';\nexport { ToolError };\nexport const n: number = ${n};\n`;

beforeAll(async () => {
  // Inside the catalogue's package, so `@mcp-workshop/shared` resolves through its node_modules.
  scratch = mkdtempSync(path.join(CATALOGUE, '.scratch-loader-'));
  mkdirSync(path.join(scratch, 'src'));
  writeFileSync(
    path.join(scratch, 'package.json'),
    JSON.stringify({ dependencies: { '@mcp-workshop/shared': '*' } }),
  );
  writeFileSync(path.join(scratch, 'src', 'a.ts'), source(1));
  loader = await createCatalogueLoader(scratch);
});

afterAll(async () => {
  await loader?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('createCatalogueLoader', () => {
  it('runs the saved code after reset, with the same package instances', async () => {
    const first = await loader.import<{ ToolError: unknown; n: number }>('src/a.ts');
    expect(first.n).toBe(1);
    const file = path.join(scratch, 'src', 'a.ts');
    writeFileSync(file, source(2));
    // Without reset the evaluated module is kept.
    expect((await loader.import<{ n: number }>('src/a.ts')).n).toBe(1);
    loader.reset([file]);
    const again = await loader.import<{ ToolError: unknown; n: number }>('src/a.ts');
    expect(again.n).toBe(2);
    // Inlined, the package would have been evaluated again, and its class would be a new one.
    expect(again.ToolError).toBe(first.ToolError);
  });
});
