#!/usr/bin/env node
// @ts-check
/**
 * The build of `pnpm demo`, `pnpm ask` and `pnpm chat`, when scripts/lib/build-state.mjs finds the
 * workspace stale: `turbo run build`, told as it goes. scripts/build-if-stale.mjs runs this file as a
 * child (its build step is synchronous), with this process's stdout on its stderr, so `pnpm ask --json`
 * keeps stdout for its one JSON object.
 *
 * Turbo runs with `--log-order=grouped`, which prints a task's output in one piece when the task ends:
 * each piece is a package built (or taken from turbo's cache). What a participant sees instead of
 * turbo's banner and a silence of half a minute or more on a first build:
 *
 *   build:  turbo run build, 13 packages (no build recorded yet)
 *   build:  still building packages/shared (6 s)
 *   build:  1/13 packages/shared (6 s)
 *   build:  still building services/auth-server, services/demo-model, dev/test-infra (12 s)
 *   …
 *   build:  done in 119 s: 13 built, 0 from turbo's cache
 *
 * A package turbo takes from its cache gets no line of its own (the count still moves), and when
 * nothing has ended for `QUIET_MS` a line says what is still building. A failed package's output is
 * printed whole, with turbo's summary and errors, as `--output-logs=errors-only` printed it; turbo's
 * other lines on stderr (warnings) pass through as they come.
 *
 *   node scripts/lib/build-progress.mjs      (from scripts/build-if-stale.mjs)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildablePackages, staleReason } from './build-state.mjs';

/** At most this long without a line: well under the ten seconds a person reads as "stuck". */
export const QUIET_MS = 6_000;
/** Every line of this output starts so (scripts/lib/expected-output.mjs drops them from quotes). */
export const PREFIX = 'build:  ';
/** How often the clock is read: a package's line follows its output by a quarter of a second at most. */
export const TICK_MS = 250;
/** A task's output arrives in one burst; this long after its last line, the task has ended. */
const GROUP_SETTLED_MS = 300;
/** How many still-building packages a line names before it says "and N more". */
const NAMED = 3;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the colour codes it removes
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
/** A task's line in turbo's output: "@mcp-workshop/shared:build: text". */
const TASK_LINE = /^(\S+?):build: ?(.*)$/;
/** The first line of a task's output: "cache miss, executing <hash>", "cache hit, replaying logs <hash>". */
const CACHE_HIT = /^cache hit\b/;
/** pnpm's last word in a task whose script failed (not there under `pnpm -s`). */
const TASK_FAILED = /\bELIFECYCLE\b.*\bfailed\b|\bERR_PNPM_/;
/** Turbo's word on stderr when a task fails: "@mcp-workshop/telemetry#build:  ERROR  command (…) exited (2)". */
const TASK_ERROR = /^(\S+?)#build:\s+ERROR\b/;
/** Turbo's last word on stderr when the run fails: " ERROR  run failed: command  exited (2)". */
const RUN_ERROR = /^\s*ERROR\s+run failed/;
/** Turbo's summary after a failure: "Failed:    @mcp-workshop/telemetry#build". */
const FAILED_SUMMARY = /^\s*Failed:\s+(.*)$/;
/** Turbo's banner, which these lines replace. */
const TURBO_BANNER = [
  /^\s*$/,
  /^\s*• (?:turbo \d|Packages in scope:|Running \S+ in \d+ packages?|Remote caching)/,
];
/** Turbo's own lines on success, which these lines replace. */
const TURBO_CHATTER = [...TURBO_BANNER, /^\s*(?:Tasks|Cached|Time):\s{2,}/, /^\s*>>> FULL TURBO/];

/**
 * The packages `turbo run build` builds, from their package.json files: [{ name, where, deps }],
 * `where` relative to `root`, `deps` the names of the other buildable packages it depends on (turbo
 * builds those first, `dependsOn: ["^build"]`).
 */
export function buildGraph(root) {
  const packages = buildablePackages(root);
  const names = new Set(packages.map((p) => p.name));
  return packages.map(({ name, dir }) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const deps = new Set(
      ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) =>
        Object.keys(manifest[field] ?? {}).filter((dep) => names.has(dep) && dep !== name),
      ),
    );
    return { name, where: path.relative(root, dir), deps: [...deps] };
  });
}

/**
 * Turns turbo's grouped output, fed a line at a time, into progress lines. `print(line)` writes one;
 * `now()` is the clock (ms). Call `start()`, then `line(text)` for each line of turbo's stdout and
 * `tick()` every `TICK_MS`, then `finish(status)` with turbo's exit status.
 */
export class BuildProgress {
  constructor({ packages, reason, print, now = Date.now }) {
    this.packages = packages;
    this.byName = new Map(packages.map((p) => [p.name, p]));
    this.reason = reason;
    this.print = print;
    this.now = now;
    this.done = new Set();
    this.cached = 0;
    this.failed = new Set();
    this.groups = new Map();
    this.group = undefined;
    this.turboLines = [];
    this.turboErrors = [];
    this.erroredTasks = new Set();
    /** When `start()` ran, and when a line was last printed (ms, on `now()`'s clock). */
    this.startedAt = 0;
    this.lastSaidAt = 0;
  }

  start() {
    this.startedAt = this.now();
    const why = this.reason ? ` (${this.reason})` : '';
    this.say(`turbo run build, ${this.packages.length} packages${why}`);
  }

  line(raw) {
    const text = raw.replace(ANSI, '').trimEnd();
    const task = TASK_LINE.exec(text);
    if (!task) {
      this.closeGroup();
      this.turboLines.push(text);
      return;
    }
    if (this.group && this.group.name !== task[1]) this.closeGroup();
    if (!this.group) {
      // A group cut in two by a tick goes on where it stopped.
      const earlier = this.groups.get(task[1]);
      this.group = { name: task[1], lines: earlier?.lines ?? [] };
    }
    this.group.lines.push(text);
    this.group.lastLineAt = this.now();
  }

  /** A line of turbo's stderr: a task's or the run's error is kept for the end, anything else shown. */
  errorLine(raw) {
    const text = raw.replace(ANSI, '').trimEnd();
    const task = TASK_ERROR.exec(text);
    if (task) this.erroredTasks.add(task[1]);
    if (task || RUN_ERROR.test(text)) this.turboErrors.push(text);
    else this.print(text);
  }

  tick() {
    this.closeGroupIfQuiet();
    if (this.now() - this.lastSaidAt < QUIET_MS) return;
    const running = this.running();
    const shown = running.slice(0, NAMED).map((p) => p.where);
    const more = running.length > NAMED ? ` and ${running.length - NAMED} more` : '';
    this.say(
      shown.length > 0
        ? `still building ${shown.join(', ')}${more} (${this.elapsed()})`
        : `still building (${this.elapsed()})`,
    );
  }

  /** Prints the summary, or on failure what failed and turbo's own summary. */
  finish(status) {
    this.closeGroup();
    if (status === 0) {
      const built = this.done.size - this.cached;
      this.say(`done in ${this.elapsed()}: ${built} built, ${this.cached} from turbo's cache`);
      for (const text of this.turboLines) if (!TURBO_CHATTER.some((re) => re.test(text))) this.print(text);
      return;
    }
    // Packages turbo names as failed whose output has not been shown (their pnpm said nothing we know).
    const named = this.turboLines.flatMap((text) => {
      const failed = FAILED_SUMMARY.exec(text);
      return failed?.[1] ? failed[1].split(/[\s,]+/).map((id) => id.replace(/#build$/, '')) : [];
    });
    for (const name of named) if (!this.failed.has(name)) this.showFailure(name);
    if (this.failed.size === 0) {
      // Nothing recognisable failed: show all of turbo's output, so the reason is somewhere on screen.
      for (const { lines } of this.groups.values()) for (const text of lines) this.print(text);
    }
    this.say(`failed after ${this.elapsed()} (turbo exited ${status}); turbo's summary:`);
    for (const text of [...this.turboLines, ...this.turboErrors]) {
      if (!TURBO_BANNER.some((re) => re.test(text))) this.print(text);
    }
  }

  /** Not built yet, and every package it depends on is: what turbo is running now. */
  running() {
    return this.packages.filter(
      (p) => !this.done.has(p.name) && !this.failed.has(p.name) && p.deps.every((dep) => this.done.has(dep)),
    );
  }

  /** A group's lines arrive together: one that has had no line for a moment is complete. */
  closeGroupIfQuiet() {
    if (this.group && this.now() - this.group.lastLineAt >= GROUP_SETTLED_MS) this.closeGroup();
  }

  closeGroup() {
    const group = this.group;
    if (!group) return;
    this.group = undefined;
    this.groups.set(group.name, group);
    if (this.erroredTasks.has(group.name) || group.lines.some((text) => TASK_FAILED.test(text))) {
      this.showFailure(group.name);
      return;
    }
    if (this.done.has(group.name)) return;
    this.done.add(group.name);
    const count = `${this.done.size}/${Math.max(this.packages.length, this.done.size)}`;
    const first = TASK_LINE.exec(group.lines[0])?.[2] ?? '';
    if (CACHE_HIT.test(first)) {
      this.cached++;
      return; // from the cache in a moment: counted, not told
    }
    this.say(`${count} ${this.byName.get(group.name)?.where ?? group.name} (${this.elapsed()})`);
  }

  showFailure(name) {
    this.failed.add(name);
    const where = this.byName.get(name)?.where ?? name;
    this.say(`${where} failed; its output:`);
    for (const text of this.groups.get(name)?.lines ?? []) this.print(text);
  }

  elapsed() {
    return `${Math.floor((this.now() - this.startedAt) / 1000)} s`;
  }

  say(text) {
    this.lastSaidAt = this.now();
    this.print(`${PREFIX}${text}`);
  }
}

/** Runs `turbo run build` in `root` and tells its progress on stdout; resolves to turbo's exit status. */
export function buildWithProgress(root, { print = (line) => process.stdout.write(`${line}\n`) } = {}) {
  const progress = new BuildProgress({ packages: buildGraph(root), reason: staleReason(root), print });
  progress.start();
  const child = spawn(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', '--output-logs=full', '--log-order=grouped'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  createInterface({ input: child.stdout }).on('line', (text) => progress.line(text));
  createInterface({ input: child.stderr }).on('line', (text) => progress.errorLine(text));
  const timer = setInterval(() => progress.tick(), TICK_MS);
  return new Promise((resolve) => {
    child.on('error', (error) => {
      clearInterval(timer);
      print(`${PREFIX}could not run turbo: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      clearInterval(timer);
      const status = code ?? (signal ? 1 : 0);
      progress.finish(status);
      resolve(status);
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  process.exitCode = await buildWithProgress(root);
}
