/**
 * Before any test file: one line when this machine lacks PostgreSQL and the Postgres task store,
 * relay and readiness tests will skip. In CI `systemPrograms` throws instead, so CI never skips them.
 */
import { systemPrograms } from '@mcp-workshop/test-infra';

export default function announceSkips(): void {
  const available = systemPrograms("mcp-server's Postgres tests", ['postgres']);
  if (!available.ok) console.warn(available.skipLine);
}
