import type { UnitRuntime } from '../unit/unit-of-work.ts';
import { withUnit } from '../unit/with-unit.ts';
import { changeMailItem, mailItemFiles, requireMailItem } from './items.ts';
import { mailScanStore } from './scans.ts';

const DAY_MS = 86_400_000;
export const SCAN_PURGE_JOB = 'mail.scans.purge';

/**
 * Scan retention: for organizations that set `mail_scan_retention_days`, the files of a letter
 * archived that many days ago are deleted (the stored bytes go once nothing else holds them). The
 * letter's record, its reads and its audit trail stay; unarchived letters are never touched, so
 * unhandled mail cannot vanish. One unit of work per letter, as the job actor, with an audit row.
 * Returns the number of letters purged (the runner comes straight back while a backlog remains).
 */
export async function purgeExpiredScans(runtime: UnitRuntime, batch = 50): Promise<number> {
  const now = runtime.clock.now();
  const organizations = await runtime.db.kysely
    .selectFrom('organizations')
    .select(['id', 'mail_scan_retention_days'])
    .where('mail_scan_retention_days', 'is not', null)
    .execute();
  let purged = 0;
  for (const organization of organizations) {
    const days = Number(organization.mail_scan_retention_days);
    const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
    const due = await runtime.db.kysely
      .selectFrom('mail_items')
      .select('id')
      .where('organization_id', '=', organization.id)
      .where('archived_at', 'is not', null)
      .where('archived_at', '<=', cutoff)
      .where('scan_purged_at', 'is', null)
      .orderBy('archived_at')
      .limit(batch - purged)
      .execute();
    for (const { id } of due) {
      const options = {
        organizationId: organization.id,
        actor: { type: 'job', job: SCAN_PURGE_JOB } as const,
        operation: SCAN_PURGE_JOB,
      };
      await withUnit(runtime, options, async (unit) => {
        const item = await requireMailItem(unit.db, unit.organizationId, id);
        if (item.scan_purged_at !== null) return; // another worker got there first
        const files = await mailItemFiles(unit.db, unit.organizationId, [id]);
        await unit.db
          .updateTable('mail_item_files')
          .set({ scan_id: null })
          .where('organization_id', '=', unit.organizationId)
          .where('item_id', '=', id)
          .execute();
        for (const file of files) {
          if (file.scan_id !== null) await mailScanStore.release(unit.db, unit.organizationId, file.scan_id);
        }
        await changeMailItem(unit, item, { scan_purged_at: unit.clock.now().toISOString() });
      });
      purged += 1;
    }
    if (purged >= batch) break;
  }
  return purged;
}
