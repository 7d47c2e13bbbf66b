/**
 * @module import-parameter
 * The one name both halves of a fast start agree on: the build (`build.ts`) renames each dynamic
 * `import(` left in a chunk to it, and the loader (`code-cache.ts`) hands each chunk the import
 * function under it. Alone in its file, so a rolldown config can import it without the loader.
 */

/**
 * The parameter a chunk calls instead of `import()`: the build renames its dynamic imports of
 * packages to it (same length, so the source maps stay right), because a `vm.Script` has no module
 * loader of its own and Node's stand-in for one is experimental and warns.
 */
export const IMPORT_PARAMETER = '$mcpI$';
