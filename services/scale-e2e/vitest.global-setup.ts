/**
 * Before any test file: one line when this machine lacks PostgreSQL or HAProxy and the scale-out
 * tests will skip. In CI `systemPrograms` throws instead, so CI never skips them.
 */
import { systemPrograms } from '@mcp-workshop/test-infra';

export default function announceSkips(): void {
  const available = systemPrograms('the scale-out tests (services/scale-e2e)', ['postgres', 'haproxy']);
  if (!available.ok) console.warn(available.skipLine);
}
