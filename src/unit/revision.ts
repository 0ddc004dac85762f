import { revisionConflict } from '../contract/errors.ts';

/**
 * Loads the row a change is about to apply to and checks the caller's revision before anything
 * else: `load` answers 404 when the row is absent, then a stale `expectedRevision` is a 409
 * `revision_conflict` (contract: checked before any state rule, so a stale caller reloads first),
 * then `check` (a state rule, if any) runs on the row.
 */
export async function loadForChange<Row extends { revision: number }>(
  load: Promise<Row>,
  expectedRevision: number,
  check?: (row: Row) => void,
): Promise<Row> {
  const row = await load;
  if (row.revision !== expectedRevision) throw revisionConflict(row.revision);
  check?.(row);
  return row;
}
