/** Types for typecheck-exercise.mjs, so the exercises' TypeScript test can import it. */

/** One compiler error: `file` is absolute ('' for a global error), `text` reads like tsc's own line. */
export interface TypecheckError {
  file: string;
  text: string;
}

export function typecheckFiles(
  paths: string[],
  options: { tsconfig: string; cwd?: string },
): TypecheckError[];
