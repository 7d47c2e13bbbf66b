/**
 * @module env
 * The only place `catalogue-dev` reads `process.env`, for its own two settings; everything else in
 * the environment is the host's and the catalogue's, which the host's runner validates (`loadRunEnv`).
 * - CATALOGUE_DEV_ROOT: the catalogue folder to serve when the command names none (default: the
 *   current folder, which `pnpm dev` makes services/mcp-server). A test serves a scratch copy this way.
 * - CATALOGUE_DEV_TYPECHECK: `false` turns the background type check off (default `true`).
 */
import path from 'node:path';

export interface CatalogueDevEnv {
  root: string;
  typecheck: boolean;
}

export class CatalogueDevEnvError extends Error {
  override readonly name = 'EnvError';
}

export function loadCatalogueDevEnv(
  argv: readonly string[],
  source: NodeJS.ProcessEnv = process.env,
): CatalogueDevEnv {
  const typecheck = source.CATALOGUE_DEV_TYPECHECK ?? 'true';
  if (typecheck !== 'true' && typecheck !== 'false') {
    throw new CatalogueDevEnvError(
      `CATALOGUE_DEV_TYPECHECK must be true or false, not ${JSON.stringify(typecheck)}.`,
    );
  }
  const root = argv[0] ?? (source.CATALOGUE_DEV_ROOT || '.');
  return { root: path.resolve(root), typecheck: typecheck === 'true' };
}
