import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../support/app.ts';
import { auditRows } from '../../support/audit.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { b64, JPEG, mailCaller, op, PDF, PNG, storedEvents, upload } from './helpers.ts';

/** mail.items.upload: a scanned letter with its files, its audit row and a mail.received event. */
for (const dialect of DIALECTS) {
  describe(`mail.items.upload (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('records a PDF letter: the item, its file, an audit row and mail.received without sender or subject', async () => {
      const caller = await mailCaller(app);
      const res = await upload(app, caller);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const item = res.data;
      assert.equal(item.channel, 'post');
      assert.equal(item.sender, 'Revenue Agency');
      assert.equal(item.subject, 'Notice of assessment 2025');
      assert.equal(item.received_at, '2026-01-14T08:30:00.000Z');
      assert.deepEqual(item.files, [
        {
          position: 1,
          media_type: 'application/pdf',
          file_name: 'notice.pdf',
          size_bytes: PDF.length,
          sha256: (await import('node:crypto')).createHash('sha256').update(PDF).digest('hex'),
          available: true,
        },
      ]);
      assert.deepEqual([item.read_at, item.archived_at, item.revision], [null, null, 1]);
      const audit = await auditRows(app, {
        organizationId: caller.organizationId,
        recordId: String(item.id),
      });
      assert.deepEqual(
        audit.map((row) => [row.operation, row.record_type, row.before_revision, row.after_revision]),
        [['mail.items.upload', 'mail_item', null, 1]],
      );
      const events = await storedEvents(app, caller.organizationId);
      assert.deepEqual(
        events.map((event) => [event.type, event.subject_type, event.subject_id, event.data]),
        [
          [
            'mail.received',
            'mail_item',
            item.id,
            { channel: 'post', receivedAt: '2026-01-14T08:30:00.000Z', fileCount: 1, sizeBytes: PDF.length },
          ],
        ],
      );
    });

    it('takes page images in order, with neutral default names', async () => {
      const caller = await mailCaller(app);
      const res = await upload(app, caller, {
        files: [
          { mediaType: 'image/png', contentBase64: b64(PNG) },
          { mediaType: 'image/jpeg', contentBase64: b64(JPEG) },
        ],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const files = res.data.files as Array<Record<string, unknown>>;
      assert.deepEqual(
        files.map((file) => [file.position, file.media_type, file.file_name, file.size_bytes]),
        [
          [1, 'image/png', 'letter-1.png', PNG.length],
          [2, 'image/jpeg', 'letter-2.jpg', JPEG.length],
        ],
      );
      assert.equal(res.data.size_bytes, PNG.length + JPEG.length);
    });

    it('refuses bad scans and fields with a stable code, naming what is allowed, and changes nothing', async () => {
      const caller = await mailCaller(app);
      const pdf = { mediaType: 'application/pdf', contentBase64: b64(PDF) };
      const cases: Array<[Record<string, unknown>, number, string, string, RegExp]> = [
        [
          { files: [{ mediaType: 'application/pdf', contentBase64: b64(PNG) }] },
          400,
          'invalid_file',
          'files.0.contentBase64',
          /allowed: application\/pdf, image\/jpeg, image\/png, image\/tiff/,
        ],
        [
          { files: [{ mediaType: 'image/png', contentBase64: 'not base64!' }] },
          400,
          'invalid_file',
          'files.0.contentBase64',
          /base64/,
        ],
        [{ files: [pdf, pdf] }, 400, 'invalid_file', 'files', /one PDF, or the pages as images/],
        [
          { files: [{ mediaType: 'text/html', contentBase64: b64(PDF) }] },
          400,
          'invalid_input',
          'files.0.mediaType',
          /./,
        ],
        [{ files: [] }, 400, 'invalid_input', 'files', /./],
        [{ receivedAt: '2027-01-01T00:00:00.000Z' }, 400, 'invalid_input', 'receivedAt', /in the future/],
        [{ sender: '' }, 400, 'invalid_input', 'sender', /./],
        [{ subject: 'x'.repeat(501) }, 400, 'invalid_input', 'subject', /./],
      ];
      for (const [overrides, status, code, field, message] of cases) {
        const res = await upload(app, caller, overrides);
        assertError(res, status, code, JSON.stringify(overrides).slice(0, 80));
        assert.equal(res.error.field, field, JSON.stringify(res.body));
        assert.match(res.error.message, message);
        // Never the sender or subject in an error message.
        assert.doesNotMatch(res.error.message, /Revenue Agency|Notice of assessment/);
      }
      const count = await app.services.db.kysely
        .selectFrom('mail_items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', caller.organizationId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0);
    });

    it('a scanning service key with only mail:write uploads but reads nothing', async () => {
      const scanner = await mailCaller(app, { scopes: ['mail:write'] });
      const res = await upload(app, scanner);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assertError(await op(app, scanner, 'mail.items.list'), 403, 'insufficient_scope');
      assertError(
        await op(app, scanner, 'mail.items.get', { id: String(res.data.id) }),
        403,
        'insufficient_scope',
      );
    });
  });
}
