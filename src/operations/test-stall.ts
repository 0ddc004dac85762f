import { writeSync } from 'node:fs';

/**
 * Test hook for the stalled-holder tests (test/spine/fencing.test.ts): with NODE_ENV=test and
 * ACCOUNTING_TEST_STALL_AFTER_CLAIM=<prefix>, a process that has just claimed an idempotency key
 * starting with <prefix> says so on stdout and stops itself (SIGSTOP), as a GC pause or a frozen
 * VM would stop it; the test resumes it with SIGCONT. Read once; ignored outside tests.
 */
const prefix =
  process.env.NODE_ENV === 'test' ? process.env.ACCOUNTING_TEST_STALL_AFTER_CLAIM || undefined : undefined;

export function stallAfterClaimInTests(key: string): void {
  if (prefix === undefined || !key.startsWith(prefix)) return;
  // Synchronous, so the line is out before the process stops.
  writeSync(1, `stalled after claiming ${key}\n`);
  process.kill(process.pid, 'SIGSTOP');
}
