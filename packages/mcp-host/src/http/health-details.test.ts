/**
 * @module http/health-details.test
 * `GET /health` with `healthDetails`: the extra fields are read at each request (so `pnpm dev`'s
 * reload state is current), and cannot replace the host's own fields.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureHost } from '../test-support/fixture-host.js';
import type { HttpHost } from './start.js';

let host: HttpHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function health(): Promise<Record<string, unknown>> {
  const response = await fetch(`${host?.baseUrl}/health`);
  return (await response.json()) as Record<string, unknown>;
}

describe('GET /health with healthDetails', () => {
  it('adds the fields as they are at each request', async () => {
    let reloads = 0;
    host = await startFixtureHost({ stateless: true, healthDetails: () => ({ dev: { reloads } }) });
    expect(await health()).toMatchObject({ status: 'ok', dev: { reloads: 0 } });
    reloads = 2;
    expect(await health()).toMatchObject({ status: 'ok', dev: { reloads: 2 } });
  });

  it("never replaces the host's own fields", async () => {
    host = await startFixtureHost({
      stateless: true,
      healthDetails: () => ({ status: 'broken', name: 'someone else' }),
    });
    expect(await health()).toMatchObject({ status: 'ok', name: 'fixture-notes' });
  });

  it('adds nothing without it', async () => {
    host = await startFixtureHost({ stateless: true });
    expect(Object.keys(await health()).sort()).toEqual(
      ['catalogueLoadedAt', 'mode', 'name', 'sessions', 'status', 'uptimeSeconds', 'version'].sort(),
    );
  });
});
