import { userInfo } from 'node:os';

/** The OS user running the command, recorded on audit rows as `operator:<user>` (told, not proven). */
export function operatorUser(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    // No passwd entry (some containers): still an operator, just unnamed.
    return 'unknown';
  }
}
