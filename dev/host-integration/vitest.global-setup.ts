/**
 * Before any test file: the one line a `pnpm test` run prints when this machine lacks PostgreSQL or
 * HAProxy, naming every package's tests that skip for it (scale-e2e and test-infra stay silent, so
 * the run says it once). In CI it throws instead, so CI never skips them.
 */
import { skippedSystemTests } from '@mcp-workshop/test-infra';

export default function announceSkips(): void {
  const line = skippedSystemTests();
  if (line) console.warn(line);
}
