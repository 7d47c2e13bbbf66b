/**
 * Before any test file: fails in CI when PostgreSQL or HAProxy is missing, so CI never skips the
 * scale-out tests. On a laptop it says nothing: host-integration's global setup prints the run's one skip
 * line, which names these tests too, and vitest lists them as skipped.
 */
import { systemPrograms } from '@mcp-workshop/test-infra';

export default function requireInCi(): void {
  systemPrograms('the scale-out tests (services/scale-e2e)', ['postgres', 'haproxy']);
}
