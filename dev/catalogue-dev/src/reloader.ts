/**
 * @module reloader
 * Turns file saves into catalogue reloads: saves that come together (an editor writing a file
 * twice, a formatter, a rename) are gathered for a moment and reloaded once; reloads never overlap,
 * and a save during one is picked up by the next. A reload that fails leaves the last good
 * catalogue serving; it is reported with the file and line of the error, and the next save tries
 * again. No I/O of its own: what to do and what to say are handed in. Test: `reloader.test.ts`.
 */

/** How long saves are gathered before one reload: an editor's save and a formatter's rewrite land within it. */
export const GATHER_MS = 30;

/** Where an error points in the catalogue's sources, when it says. */
export interface ErrorLocation {
  file: string;
  line: number;
  column?: number;
}

export type ReloadEvent =
  | { kind: 'reloaded'; files: string[]; ms: number; sessions: number }
  | { kind: 'failed'; files: string[]; ms: number; message: string; location: ErrorLocation | undefined };

export interface ReloaderOptions {
  /** Loads the catalogue as the files are now and hands it to the host; resolves to the sessions moved. */
  reload: (files: string[]) => Promise<{ sessions: number }>;
  /** Whether a changed file is the catalogue's (tests and build output are not). */
  concerns: (file: string) => boolean;
  /** Told of each reload, in the order they finish. */
  report: (event: ReloadEvent) => void;
  /** Absolute paths under it are the catalogue's own, to find an error's place in a stack. */
  root: string;
  gatherMs?: number;
  now?: () => number;
}

export interface Reloader {
  /** A file under the catalogue's root was added, changed or removed. */
  changed(file: string): void;
  /** Resolves once no reload is waiting or running. */
  settled(): Promise<void>;
}

export function createReloader(options: ReloaderOptions): Reloader {
  const gatherMs = options.gatherMs ?? GATHER_MS;
  const now = options.now ?? (() => performance.now());
  let waiting = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  /** When the first save of the batch now gathering came in: save → reloaded is timed from it. */
  let firstSaveAt = 0;

  const run = async (): Promise<void> => {
    const files = [...waiting].sort();
    const startedAt = firstSaveAt;
    waiting = new Set();
    try {
      const { sessions } = await options.reload(files);
      options.report({ kind: 'reloaded', files, ms: now() - startedAt, sessions });
    } catch (error) {
      options.report({
        kind: 'failed',
        files,
        ms: now() - startedAt,
        message: errorMessage(error),
        location: errorLocation(error, options.root),
      });
    }
  };

  const start = () => {
    timer = undefined;
    if (running || waiting.size === 0) return;
    running = run().finally(() => {
      running = undefined;
      // Saves that came in during this reload get one more.
      if (waiting.size > 0) start();
    });
  };

  return {
    changed(file) {
      if (!options.concerns(file)) return;
      if (waiting.size === 0) firstSaveAt = now();
      waiting.add(file);
      if (!timer) timer = setTimeout(start, gatherMs);
    },
    async settled() {
      for (let round = 0; round < 100 && (timer || running); round++) {
        await (running ?? new Promise((resolve) => setTimeout(resolve, gatherMs)));
      }
    },
  };
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0] ?? message;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are what is removed.
const ANSI_COLOURS = /\u001b\[[0-9;]*m/g;

/**
 * What went wrong, in one line: a transform error's first diagnostic (`[PARSE_ERROR] Unexpected
 * token`) rather than its "Transform failed with 1 error:" heading, else the error's first line.
 */
export function errorMessage(error: unknown): string {
  const diagnostic = transformDiagnostic(error);
  if (diagnostic) return firstLine(diagnostic.replace(ANSI_COLOURS, '').trim());
  return firstLine(error instanceof Error ? error.message : String(error));
}

function transformDiagnostic(error: unknown): string | undefined {
  const errors = (error as { errors?: unknown } | null)?.errors;
  const first = Array.isArray(errors) ? (errors[0] as { message?: unknown } | undefined) : undefined;
  return typeof first?.message === 'string' ? first.message : undefined;
}

/**
 * The file and line an error points at: a transform error's own place (a syntax error: the file
 * is its `id`, the line and column are in its diagnostic), else the first frame of its stack inside
 * the catalogue (an error thrown while the catalogue loads).
 */
export function errorLocation(error: unknown, root: string): ErrorLocation | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const id = (error as { id?: unknown }).id;
  const diagnostic = transformDiagnostic(error)?.replace(ANSI_COLOURS, '');
  const place = diagnostic && /\[\s*\S+?:(\d+):(\d+)\s*\]/.exec(diagnostic);
  if (typeof id === 'string' && place) return { file: id, line: Number(place[1]), column: Number(place[2]) };
  const stack = (error as { stack?: unknown }).stack;
  if (typeof stack !== 'string') return undefined;
  const prefix = root.endsWith('/') ? root : `${root}/`;
  for (const match of stack.matchAll(/(\/[^\s():]+):(\d+):(\d+)/g)) {
    const [, file, line, column] = match;
    if (file?.startsWith(prefix) && !file.includes('/node_modules/')) {
      return { file, line: Number(line), column: Number(column) };
    }
  }
  return undefined;
}
