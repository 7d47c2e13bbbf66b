// @ts-check
// Tests of scripts/lib/package-boundaries.mjs, and the check itself over the repository; run with `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  breaches,
  catalogueBundlerConfigs,
  catalogueEntries,
  catalogueLines,
  catalogueTestFiles,
  catalogueTestLines,
  MAX_CATALOGUE_ENTRIES,
  MAX_CATALOGUE_LINES,
  MAX_CATALOGUE_TEST_LINES,
  names,
  processIoBreaches,
  RULES,
  STARTED_SERVICES,
  specifiersIn,
  startScriptBreaches,
} from './package-boundaries.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('specifiersIn and names', () => {
  it('finds static, type-only, re-exported, dynamic and bare imports', () => {
    const text = [
      "import express from 'express';",
      "import type { Pool } from 'pg';",
      "export { trace } from '@opentelemetry/api';",
      "const http = await import('node:http');",
      "import 'jose';",
    ].join('\n');
    assert.deepEqual(specifiersIn(text), ['express', 'pg', '@opentelemetry/api', 'node:http', 'jose']);
  });

  it('matches a name, its subpaths and a whole scope, and nothing that merely starts alike', () => {
    assert.equal(names('@mcp-workshop/mcp-host/caller', '@mcp-workshop/mcp-host'), true);
    assert.equal(names('@opentelemetry/sdk-trace-base', '@opentelemetry/*'), true);
    assert.equal(names('pgp', 'pg'), false);
    assert.equal(names('@mcp-workshop/mcp-hosting', '@mcp-workshop/mcp-host'), false);
  });
});

describe('breaches', () => {
  it('reports a forbidden import and a forbidden dependency, and lets the rest through', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-'));
    try {
      const dir = path.join(root, 'packages/mcp-host/src');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'a.ts'), "import { tools } from '@mcp-workshop/mcp-server';\n");
      fs.writeFileSync(
        path.join(dir, 'b.test.ts'),
        "import { x } from '@mcp-workshop/task-store/postgres';\n",
      );
      fs.writeFileSync(path.join(dir, 'c.ts'), "import express from 'express';\n");
      fs.writeFileSync(
        path.join(root, 'packages/mcp-host/package.json'),
        JSON.stringify({ devDependencies: { '@mcp-workshop/mcp-server': 'workspace:*', zod: '4' } }),
      );
      const rule = RULES.find((candidate) => candidate.dir === 'packages/mcp-host');
      assert.deepEqual(breaches(root, rule).sort(), [
        'packages/mcp-host/package.json: @mcp-workshop/mcp-server',
        'packages/mcp-host/src/a.ts: @mcp-workshop/mcp-server',
        'packages/mcp-host/src/b.test.ts: @mcp-workshop/task-store/postgres',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the catalogue as a participant sees it', () => {
  /** A scratch catalogue: `files` by path under services/mcp-server. */
  function catalogue(files) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-catalogue-'));
    for (const [file, text] of Object.entries(files)) {
      const full = path.join(root, 'services/mcp-server', file);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, text);
    }
    return root;
  }

  it('reports process I/O in the source, and none in its tests', () => {
    const root = catalogue({
      'src/serve.ts': "server.listen(3000);\nprocess.once('SIGTERM', stop);\n",
      'src/main.ts': 'const [flag] = process.argv.slice(2);\nif (!flag) process.exit(1);\n',
      'src/tools/echo.ts': 'export const zone = process.env.TZ;\n',
      'src/tools/echo.test.ts': 'upstream.listen(0);\n',
      'src/test-support/http.ts': 'process.on("exit", () => {});\n',
    });
    try {
      assert.deepEqual(processIoBreaches(root).sort(), [
        'services/mcp-server/src/main.ts:1: process.argv',
        'services/mcp-server/src/main.ts:2: process.exit',
        'services/mcp-server/src/serve.ts:1: listen',
        'services/mcp-server/src/serve.ts:2: a signal handler',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("counts the tests in src, test-support, test/ and views' tests, not the views' own code", () => {
    const root = catalogue({
      'src/tools/echo.ts': 'a\n',
      'src/tools/echo.test.ts': 'a\nb\n',
      'src/test-support/server.ts': 'a\nb\nc\n',
      'test/lists.test.ts': 'a\n',
      'views/weather/main.ts': 'a\nb\n',
      'views/weather/main.test.ts': 'a\n',
      'rolldown.config.mjs': 'export default {};\n',
      'vitest.config.ts': 'export default {};\n',
    });
    try {
      const relative = catalogueTestFiles(root).map((file) => path.relative(root, file));
      assert.deepEqual(relative.sort(), [
        'services/mcp-server/src/test-support/server.ts',
        'services/mcp-server/src/tools/echo.test.ts',
        'services/mcp-server/test/lists.test.ts',
        'services/mcp-server/views/weather/main.test.ts',
      ]);
      assert.equal(catalogueTestLines(root), 7);
      assert.deepEqual(catalogueBundlerConfigs(root), ['rolldown.config.mjs']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('startScriptBreaches', () => {
  /** A scratch workspace: `scripts` per package folder, as their package.json files hold them. */
  function workspace(packages) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-start-'));
    fs.writeFileSync(path.join(root, 'pnpm-workspace.yaml'), "packages:\n  - services/*\n  - 'dev/*'\n");
    for (const [dir, scripts] of Object.entries(packages)) {
      fs.mkdirSync(path.join(root, dir), { recursive: true });
      fs.writeFileSync(path.join(root, dir, 'package.json'), JSON.stringify({ name: dir, scripts }));
    }
    return root;
  }

  it('fails a package outside the started services that adds a start script, and a service without one', () => {
    const root = workspace({
      'services/mcp-server': { start: 'node dist/index.js' },
      'services/agent': { build: 'tsc' },
      'dev/conformance-server': { start: 'node dist/index.js', serve: 'node dist/index.js' },
      'dev/launcher': { build: 'tsc' },
    });
    try {
      const found = startScriptBreaches(root, ['services/mcp-server', 'services/agent']);
      assert.equal(found.length, 2, found.join('\n'));
      assert.match(found[0] ?? '', /^services\/agent: a service `pnpm start` runs, without a start script/);
      assert.match(found[1] ?? '', /^dev\/conformance-server: "start": "node dist\/index\.js", but only /);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('passes a workspace whose only start scripts are the services ones', () => {
    const root = workspace({
      'services/mcp-server': { start: 'node dist/index.js' },
      'dev/conformance-server': { serve: 'node dist/index.js' },
    });
    try {
      assert.deepEqual(startScriptBreaches(root, ['services/mcp-server']), []);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('this repository', () => {
  it(`only ${STARTED_SERVICES.join(', ')} have a start script`, () => {
    assert.deepEqual(startScriptBreaches(ROOT), []);
  });

  for (const rule of RULES) {
    it(`${rule.dir} imports none of ${rule.forbidden.length} forbidden packages`, () => {
      assert.deepEqual(breaches(ROOT, rule), []);
    });
  }

  it(`the catalogue's source holds at most ${MAX_CATALOGUE_LINES} lines`, () => {
    const lines = catalogueLines(ROOT);
    assert.ok(lines <= MAX_CATALOGUE_LINES, `${lines} lines`);
    assert.ok(lines > 1_000, `${lines} lines: the count missed the tools`);
  });

  it(`the catalogue's tests hold at most ${MAX_CATALOGUE_TEST_LINES} lines`, () => {
    const lines = catalogueTestLines(ROOT);
    assert.ok(lines <= MAX_CATALOGUE_TEST_LINES, `${lines} lines`);
    assert.ok(lines > 1_000, `${lines} lines: the count missed the tools' tests`);
  });

  it("the catalogue's source does no process I/O, and its root holds no bundler config", () => {
    assert.deepEqual(processIoBreaches(ROOT), []);
    assert.deepEqual(catalogueBundlerConfigs(ROOT), []);
  });

  it(`the catalogue's src holds at most ${MAX_CATALOGUE_ENTRIES} entries at its top`, () => {
    const entries = catalogueEntries(ROOT);
    assert.ok(entries.length <= MAX_CATALOGUE_ENTRIES, `${entries.length}: ${entries.join(', ')}`);
    assert.ok(entries.includes('tools'), `${entries.join(', ')}: the listing missed the tools`);
  });
});
