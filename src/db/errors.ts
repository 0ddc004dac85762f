/** Errors that mean "the database cannot be reached or is overloaded", as opposed to a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (
      [
        'ECONNREFUSED',
        'ECONNRESET',
        'ETIMEDOUT',
        'ENOTFOUND',
        'EPIPE',
        'SQLITE_BUSY',
        'SQLITE_LOCKED',
      ].includes(code)
    )
      return true;
    // PostgreSQL classes 08 (connection exception), 53 (insufficient resources), 57P (operator
    // intervention), 28 (the server refuses our login) and 3D000 (our database is gone): none is
    // the caller's fault, and all may pass once an operator acts.
    if (/^(08|53|57P|28)/.test(code) || code === '3D000') return true;
  }
  return /timeout exceeded when trying to connect|Connection terminated|the database connection is not open|Cannot use a pool after calling end/i.test(
    error.message,
  );
}

/** A unique constraint violation on either database (used to turn races into 409s). */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
