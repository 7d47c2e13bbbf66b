/**
 * Before any test file: fails in CI when PostgreSQL or HAProxy is missing, so CI never skips these
 * tests. On a laptop it says nothing: host-integration's global setup prints the run's one skip line.
 */
import { systemPrograms } from './src/system-binaries.js';

export default function requireInCi(): void {
  systemPrograms("test-infra's PostgreSQL and HAProxy tests", ['postgres', 'haproxy']);
}
