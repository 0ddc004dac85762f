import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALL_SCOPES } from '../../src/contract/access.ts';
import { companyMailJobs } from '../../src/jobs/company-mail-jobs.ts';
import { b64, op, PNG, upload } from '../operations/mail/helpers.ts';
import { createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { auditRows } from '../support/audit.ts';
import { DIALECTS } from '../support/databases.ts';
import { assertError } from '../support/expect.ts';

const DAY = 86_400_000;

/**
 * Scan retention: an organization setting (admin.organization.update mailScanRetentionDays) and
 * the sweeper job. Archived letters lose their files after the retention; the letter, its reads
 * and its audit trail stay; unarchived letters and bytes a receipt holds are never deleted.
 */
for (const dialect of DIALECTS) {
  describe(`company mail scan retention (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    const storedFile = (id: string | undefined) =>
      app.services.db.kysely
        .selectFrom('stored_files')
        .select('id')
        .where('id', '=', String(id))
        .executeTakeFirst();
    const scanIds = async (itemId: string) =>
      (
        await app.services.db.kysely
          .selectFrom('mail_item_files')
          .select('scan_id')
          .where('item_id', '=', itemId)
          .execute()
      ).map((row) => row.scan_id);

    it('deletes the files of letters archived longer than the setting, and nothing else', async () => {
      const admin = await createCaller(app, { scopes: ALL_SCOPES });
      const set = await op(app, admin, 'admin.organization.update', {
        expectedRevision: 1,
        mailScanRetentionDays: 30,
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.equal(set.data.mail_scan_retention_days, 30);
      assertError(
        await op(app, admin, 'admin.organization.update', { expectedRevision: 2, mailScanRetentionDays: 0 }),
        400,
        'invalid_input',
      );

      const old = await upload(app, admin);
      const kept = await upload(app, admin, { files: [{ mediaType: 'image/png', contentBase64: b64(PNG) }] });
      const forwarded = await upload(app, admin, {
        files: [{ mediaType: 'image/png', contentBase64: b64(Buffer.concat([PNG, Buffer.from('receipt')])) }],
      });
      const fwd = await op(app, admin, 'mail.items.forwardToInbox', {
        id: forwarded.data.id,
        expectedRevision: 1,
      });
      assert.equal(fwd.status, 200, JSON.stringify(fwd.body));
      await op(app, admin, 'mail.items.get', { id: old.data.id });
      await op(app, admin, 'mail.items.archive', { id: old.data.id, expectedRevision: 1 });
      await op(app, admin, 'mail.items.archive', { id: forwarded.data.id, expectedRevision: 2 });
      const [oldScan] = await scanIds(String(old.data.id));
      const [forwardedScan] = await scanIds(String(forwarded.data.id));

      app.clock.advance(29 * DAY);
      await app.runJobs(companyMailJobs);
      assert.notEqual((await scanIds(String(old.data.id)))[0], null, 'not yet: 29 days');

      app.clock.advance(DAY);
      await app.runJobs(companyMailJobs);
      assert.deepEqual(await scanIds(String(old.data.id)), [null]);
      assert.equal(await storedFile(oldScan ?? undefined), undefined, 'the bytes are gone');
      // The receipt made from the forwarded letter keeps its original.
      assert.deepEqual(await scanIds(String(forwarded.data.id)), [null]);
      assert.notEqual(await storedFile(forwardedScan ?? undefined), undefined);
      // Never archived: untouched however old.
      assert.notEqual((await scanIds(String(kept.data.id)))[0], null);

      const got = await op(app, admin, 'mail.items.get', { id: old.data.id });
      const item = got.data.item as {
        scan_purged_at: string;
        files: Array<{ available: boolean }>;
        sender: string;
      };
      assert.equal(item.scan_purged_at, app.clock.now().toISOString());
      assert.deepEqual(
        item.files.map((file) => file.available),
        [false],
      );
      assert.equal(item.sender, 'Revenue Agency');
      assert.equal(got.data.read_count, 2, 'the reads stay');
      const download = await op(app, admin, 'mail.items.download', { id: old.data.id });
      assertError(download, 404, 'mail_scan_purged');
      assert.doesNotMatch(download.error.message, /Revenue|assessment/);
      const audit = await auditRows(app, {
        organizationId: admin.organizationId,
        recordId: String(old.data.id),
      });
      assert.ok(
        audit.some((row) => row.operation === 'mail.scans.purge' && row.actor_id === 'job:mail.scans.purge'),
      );
    });
  });
}
