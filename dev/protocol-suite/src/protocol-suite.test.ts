/**
 * Black-box protocol suite: raw HTTP (fetch) against a live server, once per revision: the URL in
 * PROTOCOL_SUITE_URL (env.ts; the CLI's `--url`), else a workshop server started on 127.0.0.1 for
 * each revision (target.ts); PROTOCOL_SUITE_REVISIONS runs a subset. One `it` per row of the
 * checklist's §9 table (mcp-server-checklist.md, kept outside this repository) and of the
 * 2026-07-28 addendum's §4 table, plus a few extras for the same spec items. Test names read
 * `[spec item] expectation (source)`, source being `§9 #row`, `A#row` or `extra`.
 * Cases live in `cases/`; a case lists its revisions and is filtered, never skipped.
 *
 * Applicability (L = the four legacy revisions 2024-11-05…2025-11-25; M = 2026-07-28):
 *
 * | revisions               | §9 rows (checklist)                      | addendum §4 rows, extras                   |
 * |-------------------------|------------------------------------------|--------------------------------------------|
 * | L and M                 | 5 8–13 17 25 26 30 33 34 37–40 45–49     | extras: jsonrpc "1.0", no method, wrong    |
 * |                         | 51 52 54 57–60 63 64 66 67               | param types, bad Host, huge string, >1 MB, |
 * |                         |                                          | deep JSON, deep/large args, bad cursors    |
 * | L                       | 1–4 6 7 16 18–24 27 28 44 53 55 56 61 62 | extras: ping before initialized, malformed |
 * |                         | 65                                       | session id, updated + list_changed on GET, |
 * |                         |                                          | log levels, no elicitation w/o capability  |
 * | 2024-11-05, 2025-03-26  | 15 (with and without the version header) | extra: initialize inside a batch           |
 * |                         | 24 (version header sent anyway)          |                                            |
 * | 2024-11-05              |                                          | extra: legacy HTTP+SSE endpoint /sse (H12) |
 * | 2025-03-26 … 2025-11-25 | 31 32                                    |                                            |
 * | 2025-06-18, 2025-11-25  | 36 43                                    | extras: elicitation accept / decline       |
 * | 2025-06-18 … M          | 14 41 42                                 |                                            |
 * | 2025-11-25              | 29 50                                    |                                            |
 * | 2025-11-25, M           | 35                                       |                                            |
 * | M                       | 16 (Accept: text/html) 62 (envelope      | A#1–15; extras: initialize naming          |
 * |                         | logLevel) 65 (closing the stream)        | 2026-07-28, header/envelope checks, log    |
 * |                         |                                          | scoping, delivery on subscriptions/listen  |
 *
 * Every malformed-input case ends by asserting the server still answers ping (legacy) or
 * server/discover (2026-07-28). The server pages lists by 3 and loads the conformance fixtures
 * (README.md lists what else a server under test must carry).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CASES, caseCounts, casesFor } from './cases/index.js';
import { ProtocolClient } from './client.js';
import { loadSuiteEnv } from './env.js';
import { type CaseContext, caseName, expectResultFor } from './harness.js';
import { LEGACY, REVISIONS } from './revisions.js';
import { openTarget, type SuiteTarget } from './target.js';

const env = loadSuiteEnv();

describe.each(env.revisions)('MCP %s over raw HTTP', (rev) => {
  let server: SuiteTarget;
  let client: ProtocolClient;
  let extras: ProtocolClient[] = [];

  beforeAll(async () => {
    server = await openTarget(env.target);
    client = await ProtocolClient.connect(server.mcpUrl, rev);
  });

  afterEach(async () => {
    await Promise.all(extras.map((extra) => extra.close()));
    extras = [];
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  const context = (): CaseContext => ({
    rev,
    server,
    client,
    async connect(capabilities = {}) {
      const extra = await ProtocolClient.connect(server.mcpUrl, rev, capabilities);
      extras.push(extra);
      return extra;
    },
    async expectAlive() {
      expectResultFor(rev, await client.probe());
    },
  });

  for (const protocolCase of casesFor(rev)) {
    it(caseName(protocolCase), () => protocolCase.run(context()), protocolCase.timeoutMs);
  }
});

describe('protocol suite coverage', () => {
  const counts = caseCounts();
  const summary = REVISIONS.map((rev) => `${rev}: ${counts[rev]}`).join(', ');

  it(`runs ${Object.values(counts).reduce((a, b) => a + b, 0)} cases over ${CASES.length} definitions (${summary})`, () => {
    console.log(`protocol suite cases per revision: ${summary}`);
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    for (const rev of LEGACY) expect(counts[rev], rev).toBeGreaterThanOrEqual(40);
  });

  it('covers every row of the checklist §9 table (1–67) and of the addendum §4 table (1–15)', () => {
    const sources = new Set(CASES.map((c) => c.source));
    const missing = [
      ...Array.from({ length: 67 }, (_, i) => `§9 #${i + 1}`),
      ...Array.from({ length: 15 }, (_, i) => `A#${i + 1}`),
    ].filter((source) => !sources.has(source));
    expect(missing).toEqual([]);
  });

  it('gives every case a unique name within each revision', () => {
    for (const rev of REVISIONS) {
      const names = casesFor(rev).map(caseName);
      expect(
        names.filter((name, i) => names.indexOf(name) !== i),
        rev,
      ).toEqual([]);
    }
  });
});
