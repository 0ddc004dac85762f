import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { auditRows } from '../../support/audit.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { openApiCheckedFetch } from '../../support/http.ts';
import { b64, JPEG, mailCaller, op, PDF, PNG, storedEvents, upload } from './helpers.ts';

/**
 * mail.items.get / download record every read (who, when, which letter) and list them with the
 * letter; markRead and archive change its state with a revision; archive emits mail.archived.
 */
for (const dialect of DIALECTS) {
  describe(`mail.items.get, download, markRead, archive (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('records each read of a letter and lists the reads with it, newest first', async () => {
      const caller = await mailCaller(app);
      const colleague = await mailCaller(app, { organizationId: caller.organizationId });
      const id = String((await upload(app, caller)).data.id);
      const first = await op(app, caller, 'mail.items.get', { id });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal((first.data.item as { sender: string }).sender, 'Revenue Agency');
      app.clock.advance(60_000);
      const download = await op(app, colleague, 'mail.items.download', { id });
      assert.equal(download.status, 200);
      assert.deepEqual(Buffer.from(String(download.data.content_base64), 'base64'), PDF);
      app.clock.advance(60_000);
      const second = await op(app, caller, 'mail.items.get', { id });
      const reads = second.data.reads as Array<Record<string, unknown>>;
      assert.equal(second.data.read_count, 3);
      assert.deepEqual(
        reads.map((read) => [read.actor_id, read.operation, read.read_at]),
        [
          [caller.memberId, 'mail.items.get', '2026-01-15T12:02:00.000Z'],
          [colleague.memberId, 'mail.items.download', '2026-01-15T12:01:00.000Z'],
          [caller.memberId, 'mail.items.get', '2026-01-15T12:00:00.000Z'],
        ].map(([actor, operation, at]) => [actor, operation, at]),
      );
      assert.ok(
        reads.every((read) => read.actor_type === 'member' && typeof read.credential_id === 'string'),
      );
      assert.equal(reads[0]?.request_id, second.headers.get('x-request-id'));
      // Reads are not changes: no audit row for them.
      const audit = await auditRows(app, { organizationId: caller.organizationId, recordId: id });
      assert.deepEqual(
        audit.map((row) => row.operation),
        ['mail.items.upload'],
      );
    });

    it('downloads each file by position, as bytes under Accept; an unknown file or letter is 404', async () => {
      const caller = await mailCaller(app);
      const id = String(
        (
          await upload(app, caller, {
            files: [
              { mediaType: 'image/png', fileName: 'p1.png', contentBase64: b64(PNG) },
              { mediaType: 'image/jpeg', fileName: 'p2.jpg', contentBase64: b64(JPEG) },
            ],
          })
        ).data.id,
      );
      const raw = await openApiCheckedFetch(
        `${app.baseUrl}/api/v1/accounting/mail.items.download?id=${id}&file=2`,
        {
          headers: { authorization: `Bearer ${caller.token}`, accept: 'image/jpeg' },
        },
      );
      assert.equal(raw.status, 200);
      assert.deepEqual(Buffer.from(await raw.arrayBuffer()), JPEG);
      assert.match(String(raw.headers.get('content-disposition')), /attachment; filename="p2.jpg"/);
      assertError(await op(app, caller, 'mail.items.download', { id, file: 3 }), 404, 'not_found');
      const other = await mailCaller(app);
      assertError(await op(app, other, 'mail.items.get', { id }), 404, 'not_found');
      assertError(await op(app, other, 'mail.items.download', { id }), 404, 'not_found');
      // Refused reads are not recorded.
      const got = await op(app, caller, 'mail.items.get', { id });
      assert.equal(got.data.read_count, 2);
    });

    it('a download name loses its bidi controls: a right-to-left override cannot disguise it', async () => {
      const caller = await mailCaller(app);
      const disguised = 'scan\u202egnp.exe';
      const id = String(
        (
          await upload(app, caller, {
            files: [{ mediaType: 'image/png', fileName: disguised, contentBase64: b64(PNG) }],
          })
        ).data.id,
      );
      const raw = await openApiCheckedFetch(
        `${app.baseUrl}/api/v1/accounting/mail.items.download?id=${id}&file=1`,
        {
          headers: { authorization: `Bearer ${caller.token}`, accept: 'image/png' },
        },
      );
      assert.equal(raw.status, 200);
      const disposition = String(raw.headers.get('content-disposition'));
      assert.equal(disposition, `attachment; filename="scangnp.exe"; filename*=UTF-8''scangnp.exe`);
      await raw.arrayBuffer();
    });

    it('marks read and unread with a revision; archives once and emits mail.archived without content', async () => {
      const caller = await mailCaller(app);
      const id = String((await upload(app, caller)).data.id);
      const read = await op(app, caller, 'mail.items.markRead', { id, expectedRevision: 1 });
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.equal(read.data.read_at, app.clock.now().toISOString());
      assert.equal(read.data.revision, 2);
      assertError(
        await op(app, caller, 'mail.items.markRead', { id, expectedRevision: 1 }),
        409,
        'revision_conflict',
      );
      assertError(
        await op(app, caller, 'mail.items.markRead', { id, expectedRevision: 2 }),
        409,
        'invalid_state',
      );
      const unread = await op(app, caller, 'mail.items.markRead', { id, expectedRevision: 2, read: false });
      assert.deepEqual([unread.data.read_at, unread.data.revision], [null, 3]);
      const archived = await op(app, caller, 'mail.items.archive', { id, expectedRevision: 3 });
      assert.equal(archived.status, 200, JSON.stringify(archived.body));
      assert.equal(archived.data.archived_at, app.clock.now().toISOString());
      assertError(
        await op(app, caller, 'mail.items.archive', { id, expectedRevision: 4 }),
        409,
        'invalid_state',
      );
      const events = await storedEvents(app, caller.organizationId);
      assert.deepEqual(
        events.map((event) => [event.type, event.data]),
        [
          [
            'mail.received',
            { channel: 'post', receivedAt: '2026-01-14T08:30:00.000Z', fileCount: 1, sizeBytes: PDF.length },
          ],
          [
            'mail.archived',
            {
              channel: 'post',
              receivedAt: '2026-01-14T08:30:00.000Z',
              archivedAt: app.clock.now().toISOString(),
              fileCount: 1,
            },
          ],
        ],
      );
      const audit = await auditRows(
        app,
        { organizationId: caller.organizationId, recordId: id },
        { orderBy: ['created_at', 'id'] },
      );
      assert.deepEqual(
        audit.map((row) => [row.operation, row.before_revision, row.after_revision]),
        [
          ['mail.items.upload', null, 1],
          ['mail.items.markRead', 1, 2],
          ['mail.items.markRead', 2, 3],
          ['mail.items.archive', 3, 4],
        ],
      );
    });
  });
}
