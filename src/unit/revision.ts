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

/**
 * The end of a compare-and-set update (`where revision = current`): the row as it is now, or,
 * when no row was updated, 409 `revision_conflict` with the revision that won the race (404 when
 * the row is gone). `load` answers 404 itself when the row is absent.
 */
export async function afterCompareAndSet<Row extends { revision: number }>(
  updatedRows: bigint,
  load: () => Promise<Row>,
): Promise<Row> {
  if (updatedRows === 0n) throw revisionConflict((await load()).revision);
  return load();
}
