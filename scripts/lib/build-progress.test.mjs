// @ts-check
// Tests of scripts/lib/build-progress.mjs; run with `node --test scripts/lib/`. Turbo's output is
// replayed from real runs (`--output-logs=full --log-order=grouped`, cut to five packages) on a
// fake clock, so the timing of the progress lines is tested without a build.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BuildProgress, buildGraph, PREFIX, QUIET_MS, TICK_MS } from './build-progress.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const PACKAGES = [
  { name: '@mcp-workshop/shared', where: 'packages/shared', deps: [] },
  { name: '@mcp-workshop/test-infra', where: 'dev/test-infra', deps: ['@mcp-workshop/shared'] },
  { name: '@mcp-workshop/auth-server', where: 'services/auth-server', deps: ['@mcp-workshop/shared'] },
  {
    name: '@mcp-workshop/telemetry',
    where: 'packages/telemetry',
    deps: ['@mcp-workshop/shared', '@mcp-workshop/test-infra'],
  },
  {
    name: '@mcp-workshop/agent',
    where: 'services/agent',
    deps: ['@mcp-workshop/auth-server', '@mcp-workshop/telemetry', '@mcp-workshop/test-infra'],
  },
];

/** A task's output as turbo prints it when the task ends: `[seconds after start, line]` each. */
function group(at, name, cache, ...lines) {
  const task = `@mcp-workshop/${name}`;
  const first =
    cache === 'hit' ? 'cache hit, replaying logs 20cca7757c8df82d' : 'cache miss, executing d72ef56ad2e92cce';
  return [
    first,
    '',
    `> ${task}@0.1.0 build /tmp/check-docs-gY8g0V/x`,
    '> tsc -p tsconfig.build.json',
    ...lines,
  ].map((text) => [at, `${task}:build: ${text}`]);
}

const BANNER = [
  '',
  '   • turbo 2.11.11',
  '   • Packages in scope: @mcp-workshop/agent, @mcp-workshop/auth-server, …',
  '   • Running build in 16 packages',
  '   • Remote caching disabled',
  '',
].map((text) => [0.1, text]);

/** A first build: nothing cached, gaps of up to 17 s between two packages ending. */
const FIRST_BUILD = [
  ...BANNER,
  ...group(4.0, 'shared', 'miss'),
  ...group(11.3, 'test-infra', 'miss'),
  ...group(12.7, 'auth-server', 'miss'),
  ...group(20.3, 'telemetry', 'miss'),
  ...group(
    37.6,
    'agent',
    'miss',
    'vite v8.3.8 building client environment for production...',
    '✓ built in 886ms',
  ),
  ...['', ' Tasks:    5 successful, 5 total', 'Cached:    0 cached, 5 total', '  Time:    37.612s ', ''].map(
    (text) => [37.7, text],
  ),
];

/**
 * Replays `events` into a BuildProgress on a fake clock, ticking every TICK_MS as the real run does,
 * and ends with `status`. Returns the printed lines, each with the second it was printed at.
 */
function replay(events, status = 0, packages = PACKAGES) {
  let clock = 0;
  const printed = [];
  const progress = new BuildProgress({
    packages,
    reason: 'no build recorded yet',
    print: (text) => printed.push({ at: clock / 1000, text }),
    now: () => clock,
  });
  progress.start();
  const end = Math.max(...events.map(([at]) => at)) * 1000;
  let next = 0;
  for (clock = 0; clock <= end + 1_000; clock += 50) {
    while (next < events.length && events[next][0] * 1000 <= clock) {
      const [, text, stream] = events[next++];
      if (stream === 'stderr') progress.errorLine(text);
      else progress.line(text);
    }
    if (clock % TICK_MS === 0) progress.tick();
  }
  progress.finish(status);
  return printed;
}

describe('BuildProgress', () => {
  it('says what it builds, a line per package as turbo ends it, and the total', () => {
    const lines = replay(FIRST_BUILD).map((p) => p.text);
    const told = lines.filter((text) => !text.startsWith(`${PREFIX}still building`));
    assert.deepEqual(told, [
      'build:  turbo run build, 5 packages (no build recorded yet)',
      'build:  1/5 packages/shared (4 s)',
      'build:  2/5 dev/test-infra (11 s)',
      'build:  3/5 services/auth-server (13 s)',
      'build:  4/5 packages/telemetry (20 s)',
      'build:  5/5 services/agent (37 s)',
      "build:  done in 38 s: 5 built, 0 from turbo's cache",
    ]);
  });

  it('is never silent for 10 s: in a quiet stretch it names what is still building', () => {
    const printed = replay(FIRST_BUILD);
    const gaps = printed.slice(1).map((p, index) => p.at - printed[index].at);
    assert.ok(Math.max(...gaps) <= QUIET_MS / 1000 + 1, `gaps: ${gaps.map((g) => g.toFixed(1)).join(', ')}`);
    const still = printed.filter((p) => p.text.startsWith(`${PREFIX}still building`)).map((p) => p.text);
    assert.deepEqual(still, [
      // Once shared is built, test-infra and auth-server can start; telemetry waits for test-infra.
      'build:  still building dev/test-infra, services/auth-server (10 s)',
      'build:  still building packages/telemetry (19 s)',
      // Between telemetry (20 s) and the agent (37 s), the agent is what runs.
      'build:  still building services/agent (26 s)',
      'build:  still building services/agent (32 s)',
    ]);
  });

  it('counts a package from turbo’s cache without a line of its own', () => {
    const events = [
      ...BANNER,
      ...group(0.4, 'shared', 'hit'),
      ...group(0.5, 'test-infra', 'hit'),
      ...group(0.5, 'auth-server', 'hit'),
      ...group(3.2, 'telemetry', 'miss'),
      ...group(3.3, 'agent', 'hit'),
    ];
    assert.deepEqual(
      replay(events).map((p) => p.text),
      [
        'build:  turbo run build, 5 packages (no build recorded yet)',
        'build:  4/5 packages/telemetry (3 s)',
        "build:  done in 4 s: 1 built, 4 from turbo's cache",
      ],
    );
  });

  it('shows a failed package’s output whole, and turbo’s summary', () => {
    const events = [
      ...BANNER,
      ...group(0.4, 'shared', 'hit'),
      ...group(0.5, 'test-infra', 'hit'),
      ...group(
        3.7,
        'telemetry',
        'miss',
        "src/index.ts(14,14): error TS2322: Type 'string' is not assignable to type 'number'.",
        ' ELIFECYCLE  Command failed with exit code 2.',
      ),
      ...[
        '',
        ' Tasks:    2 successful, 3 total',
        'Cached:    2 cached, 3 total',
        '  Time:    3.783s ',
        'Failed:    @mcp-workshop/telemetry#build',
        '',
      ].map((text) => [3.8, text]),
    ];
    const lines = replay(events, 2).map((p) => p.text);
    assert.equal(lines[1], 'build:  packages/telemetry failed; its output:');
    assert.ok(
      lines.includes(
        "@mcp-workshop/telemetry:build: src/index.ts(14,14): error TS2322: Type 'string' is not assignable to type 'number'.",
      ),
    );
    assert.equal(lines.at(-1), 'Failed:    @mcp-workshop/telemetry#build');
    assert.ok(lines.some((text) => /^build: {2}failed after \d+ s \(turbo exited 2\)/.test(text)));
    // The failed package is not counted as built.
    assert.ok(!lines.some((text) => /\d+\/5 packages\/telemetry/.test(text)));
  });

  it('knows a failed package by turbo’s error when pnpm -s hides pnpm’s, and counts it not built', () => {
    const events = [
      ...BANNER,
      ...group(0.4, 'shared', 'hit'),
      [
        6.2,
        '@mcp-workshop/telemetry#build:  ERROR  command (/tmp/x/packages/telemetry) /usr/bin/pnpm run build exited (2)',
        'stderr',
      ],
      [6.2, '@mcp-workshop/telemetry:build: cache miss, executing 1e3185fa499167eb'],
      [
        6.2,
        "@mcp-workshop/telemetry:build: src/index.ts(14,14): error TS2322: Type 'string' is not assignable to type 'number'.",
      ],
      [6.3, ' Tasks:    1 successful, 2 total'],
      [6.3, 'Failed:    @mcp-workshop/telemetry#build'],
      [6.4, ' ERROR  run failed: command  exited (2)', 'stderr'],
    ];
    const lines = replay(events, 2).map((p) => p.text);
    assert.deepEqual(lines.slice(1, 4), [
      // In this graph telemetry waits for test-infra, so the line names what could be running.
      'build:  still building dev/test-infra, services/auth-server (6 s)',
      'build:  packages/telemetry failed; its output:',
      '@mcp-workshop/telemetry:build: cache miss, executing 1e3185fa499167eb',
    ]);
    assert.ok(!lines.some((text) => /\d+\/5 packages\/telemetry/.test(text)), lines.join('\n'));
    assert.deepEqual(lines.slice(-4), [
      ' Tasks:    1 successful, 2 total',
      'Failed:    @mcp-workshop/telemetry#build',
      '@mcp-workshop/telemetry#build:  ERROR  command (/tmp/x/packages/telemetry) /usr/bin/pnpm run build exited (2)',
      ' ERROR  run failed: command  exited (2)',
    ]);
    // Turbo's banner is not repeated.
    assert.ok(!lines.some((text) => text.includes('• turbo')));
  });

  it('passes turbo’s other stderr lines through as they come', () => {
    const lines = replay([
      ...BANNER,
      [0.2, ' WARNING  no caches are enabled', 'stderr'],
      ...group(0.4, 'shared', 'hit'),
    ]).map((p) => p.text);
    assert.equal(lines[1], ' WARNING  no caches are enabled');
  });

  it('prints all of turbo’s output when it fails without naming a package', () => {
    const lines = replay([...BANNER, ...group(0.4, 'shared', 'hit'), [0.5, ' ERROR  something else']], 1).map(
      (p) => p.text,
    );
    assert.ok(lines.includes('@mcp-workshop/shared:build: cache hit, replaying logs 20cca7757c8df82d'));
    assert.ok(lines.includes(' ERROR  something else'));
  });
});

describe('buildGraph', () => {
  it('lists the packages with a build script and the ones each waits for', () => {
    const graph = new Map(buildGraph(ROOT).map((p) => [p.where, p]));
    assert.deepEqual(graph.get('packages/shared')?.deps, []);
    assert.ok(graph.get('dev/launcher')?.deps.includes('@mcp-workshop/agent'));
    assert.ok(graph.get('services/mcp-server')?.deps.includes('@mcp-workshop/mcp-host'));
    assert.equal(graph.has('exercises'), false, 'exercises has no build script');
  });
});

describe('doc/WORKSHOP.md, module 0', () => {
  // The quote of a first `pnpm demo` build, under `<!-- checked-by: scripts/lib/build-progress.test.mjs -->`.
  const lines = fs.readFileSync(path.join(ROOT, 'doc/WORKSHOP.md'), 'utf8').split('\n');
  const marker = lines.findIndex((line) => line.includes('checked-by: scripts/lib/build-progress.test.mjs'));
  const open = lines.findIndex((line, at) => at > marker && line.startsWith('```'));
  const close = lines.findIndex((line, at) => at > open && line.startsWith('```'));
  const quote = lines.slice(open + 1, close).filter((line) => line !== '…');

  it('quotes the build as BuildProgress prints it, for the packages this workspace has', () => {
    assert.ok(
      marker >= 0 && open > marker && close > open,
      'the quote and its marker are in doc/WORKSHOP.md',
    );
    const graph = buildGraph(ROOT);
    const where = new Set(graph.map((p) => p.where));
    const total = graph.length;
    assert.equal(quote[0], `build:  turbo run build, ${total} packages (no build recorded yet)`);
    for (const line of quote.slice(1)) {
      const built = /^build: {2}(\d+)\/(\d+) (\S+) \(\d+ s\)$/.exec(line);
      const still = /^build: {2}still building (.+?)(?: and \d+ more)? \(\d+ s\)$/.exec(line);
      const done = /^build: {2}done in \d+ s: (\d+) built, (\d+) from turbo's cache$/.exec(line);
      assert.ok(built || still || done, `not a line BuildProgress prints: ${line}`);
      if (built) {
        assert.equal(Number(built[2]), total, line);
        assert.ok(where.has(built[3] ?? ''), `${built[3]} is not a package with a build script`);
      }
      if (still)
        for (const name of (still[1] ?? '').split(', ')) assert.ok(where.has(name), `${name}: ${line}`);
      if (done) assert.equal(Number(done[1]) + Number(done[2]), total, line);
    }
    assert.match(quote.at(-1) ?? '', /^build: {2}done in/);
  });
});
