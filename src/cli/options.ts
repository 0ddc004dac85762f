import { organizationExists } from '../admin/organizations.ts';
import { isId } from '../contract/formats.ts';
import { terminalSafe, terminalSafeJson } from '../lib/display-text.ts';
import { UsageError } from './usage-error.ts';

/** Parsed command-line options and the checks and printing every admin command shares. */
export type Options = Record<string, string | boolean | undefined>;

export function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function requiredId(options: Options, name: string): string {
  const value = required(options, name);
  if (!isId(value)) throw new UsageError(`--${name} must be a UUID`);
  return value.toLowerCase();
}

/** `--revision N`: the revision the operator last saw; omitted means "as it is now". */
export function optionalRevision(options: Options): number | undefined {
  if (options.revision === undefined) return undefined;
  const revision = Number(options.revision);
  if (!Number.isSafeInteger(revision) || revision < 1)
    throw new UsageError('--revision must be a positive integer');
  return revision;
}

/** `--expires-at`: an ISO 8601 instant (the domain refuses one in the past). */
export function optionalExpiry(options: Options): string | undefined {
  const value = options['expires-at'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
    throw new UsageError('--expires-at must be an ISO 8601 instant, e.g. 2027-01-01T00:00:00Z');
  return new Date(value).toISOString();
}

// Everything printed may hold text from users (names, subjects): made inert for the terminal.
export function print(options: Options, json: unknown, text: string): void {
  process.stdout.write(options.json ? `${terminalSafeJson(json)}\n` : `${terminalSafe(text)}\n`);
}

/** Lists print everything: an operator's terminal, not an API page. */
export const LIST_ALL = 1_000_000;

/** `--json`: one JSON array on one line; otherwise one line per row. */
export function printRows<T>(options: Options, rows: T[], line: (row: T) => string): void {
  if (options.json) process.stdout.write(`${terminalSafeJson(rows)}\n`);
  else
    process.stdout.write(
      rows.length ? `${rows.map((row) => terminalSafe(line(row))).join('\n')}\n` : '(none)\n',
    );
}

export async function existingOrganization(
  kysely: Parameters<typeof organizationExists>[0],
  options: Options,
): Promise<string> {
  const organizationId = requiredId(options, 'org');
  if (!(await organizationExists(kysely, organizationId)))
    throw new UsageError(`organization ${organizationId} does not exist`);
  return organizationId;
}
