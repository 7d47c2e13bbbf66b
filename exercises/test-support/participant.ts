/**
 * @module test-support/participant
 * Loads the code a check runs: the participant's starter (the default, edited in place) or the
 * hidden solution when `EXERCISE_FROM=solution`. `pnpm exercises:verify` runs every check both ways.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const EXERCISES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `starter` or `solution`, from `EXERCISE_FROM`. */
export function exerciseSource(): 'starter' | 'solution' {
  return process.env.EXERCISE_FROM === 'solution' ? 'solution' : 'starter';
}

/** The folder the participant's files are read from, e.g. `01-random-fact/starter`. */
export function participantDir(exercise: string): string {
  return exerciseSource() === 'solution'
    ? join(EXERCISES_DIR, '.solutions', exercise)
    : join(EXERCISES_DIR, exercise, 'starter');
}

/** Imports `file` (e.g. `get-random-fact.ts`) of `exercise`; type it with `typeof import('./starter/…')`. */
export async function loadParticipant<Module>(exercise: string, file: string): Promise<Module> {
  return (await import(pathToFileURL(join(participantDir(exercise), file)).href)) as Module;
}
