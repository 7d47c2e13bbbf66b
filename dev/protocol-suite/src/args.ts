/**
 * @module args
 * The CLI's flags, parsed with node:util and validated with the same schemas as the environment
 * (env.ts): `--url <mcp url> [--revision <rev> ...] [--help]`. Pure, so every refusal is unit-tested.
 */
import { parseArgs } from 'node:util';
import { SuiteRevisions, SuiteUrl } from './env.js';
import { REVISIONS, type Revision } from './revisions.js';

export const USAGE = `usage: protocol-suite --url http://127.0.0.1:3000/mcp [--revision ${REVISIONS.at(-2)} ...] [--help]`;

export const HELP = `${USAGE}

Runs the black-box MCP protocol suite (raw HTTP, one case per checklist row) against a running server.

  --url <url>        the server's Streamable HTTP endpoint, http:// or https://, e.g. http://127.0.0.1:3000/mcp
  --revision <rev>   a protocol revision to test; repeat it (or give a comma list) for several. Default: all of
                     ${REVISIONS.join(', ')}
  --help             this text

Exit status: 0 when every case passed, 1 when a case failed or nothing answers at the URL, 2 for bad flags.
The server under test needs the conformance fixtures and a list page size of 3 (for the workshop server:
MCP_PAGE_SIZE=3 node dev/conformance-server/dist/index.js); see dev/protocol-suite/README.md.`;

/** What the command line asks for. */
export type CliRequest = { kind: 'help' } | { kind: 'run'; url: URL; revisions: readonly Revision[] };

/** A command line the CLI refuses; its message is the one line printed before exiting with 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseCliArgs(argv: readonly string[]): CliRequest {
  let values: { url?: string; revision?: string[]; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        revision: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (${USAGE})`);
  }
  if (values.help) return { kind: 'help' };
  // Nothing to test without a URL; `pnpm --filter @mcp-workshop/protocol-suite test` starts a server itself.
  if (values.url === undefined) throw new UsageError(`--url is required (${USAGE})`);
  const url = SuiteUrl.safeParse(values.url);
  if (!url.success) throw new UsageError(`--url ${JSON.stringify(values.url)} ${firstIssue(url.error)}`);
  const names = (values.revision ?? [...REVISIONS]).flatMap((value) =>
    value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  const revisions = SuiteRevisions.safeParse(names);
  if (!revisions.success) throw new UsageError(`--revision ${firstIssue(revisions.error)}`);
  return { kind: 'run', url: url.data, revisions: revisions.data };
}

function firstIssue(error: { issues: readonly { message: string }[] }): string {
  return error.issues[0]?.message ?? 'is invalid';
}
