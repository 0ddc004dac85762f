/** A mistake in the command line: printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {}
