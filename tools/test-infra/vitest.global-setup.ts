/**
 * Before any test file: one line when this machine lacks PostgreSQL or HAProxy and test-infra's own
 * tests of them will skip. In CI `systemPrograms` throws instead, so CI never skips them.
 */
import { systemPrograms } from './src/system-binaries.js';

export default function announceSkips(): void {
  const available = systemPrograms("test-infra's PostgreSQL and HAProxy tests", ['postgres', 'haproxy']);
  if (!available.ok) console.warn(available.skipLine);
}
