/**
 * @module test-support/sdk-patch
 * The failure message of every test that relies on our patch to the MCP SDK (`patchedDependencies`
 * in pnpm-workspace.yaml): it names the patch file and the installed SDK version, and points at
 * patches/README.md, which says how to carry the patch to a new SDK version. See sdk-patch.test.ts.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SDK_PACKAGE = '@modelcontextprotocol/server';

const require = createRequire(import.meta.url);

/** The SDK does not export its package.json; its main entry sits in dist/, one level below it. */
function installedSdkVersion(): string {
  const manifest = path.join(path.dirname(require.resolve(SDK_PACKAGE)), '..', 'package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * The patch file of the SDK's `patchedDependencies` entry (exact, range or name-only key), read from
 * the workspace file so the message names today's patch. The catalog's line for the SDK has the
 * same key but a version as its value, hence the `.patch` test.
 */
function sdkPatchFile(): string {
  const workspaceFile = fileURLToPath(new URL('../../../../pnpm-workspace.yaml', import.meta.url));
  const key = new RegExp(`^\\s*'?${SDK_PACKAGE}(?:@[^:]*)?'?:\\s*(\\S+\\.patch)\\s*$`);
  for (const line of fs.readFileSync(workspaceFile, 'utf8').split('\n')) {
    const file = key.exec(line)?.[1];
    if (file) return file;
  }
  return `(no patchedDependencies entry for ${SDK_PACKAGE} in pnpm-workspace.yaml)`;
}

/** Says that the installed SDK lacks the patched behaviour, and what to do about it. */
export const SDK_PATCH_NOT_APPLIED = `the SDK patch ${sdkPatchFile()} is not applied to the installed ${SDK_PACKAGE}@${installedSdkVersion()}: carry it to the new SDK version as patches/README.md describes`;
