import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { assertError } from '../../support/expect.ts';
import { b64, op, PDF, upload } from './helpers.ts';

/** mail.items.forwardToInbox: a letter that is a bill becomes a receipt inbox item, once. */
for (const dialect of DIALECTS) {
  describe(`mail.items.forwardToInbox (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('makes an inbox item from the scan, links it, and refuses a second forward', async () => {
      const caller = await createCaller(app, {
        scopes: ['mail:read', 'mail:write', 'accounting:read', 'accounting:write'],
      });
      const letter = await upload(app, caller);
      const id = String(letter.data.id);
      const res = await op(app, caller, 'mail.items.forwardToInbox', { id, expectedRevision: 1 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const inboxItemId = String(res.data.inbox_item_id);
      assert.equal(res.data.duplicate, false);
      assert.equal(
        (res.data.item as { forwarded_inbox_item_id: string }).forwarded_inbox_item_id,
        inboxItemId,
      );
      const receipt = await app.services.db.kysely
        .selectFrom('receipts')
        .select(['source', 'received_by', 'file_name', 'media_type', 'sha256'])
        .where('organization_id', '=', caller.organizationId)
        .where('id', '=', inboxItemId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(receipt, {
        source: 'mail_forward',
        received_by: `member:${caller.memberId}`,
        file_name: 'notice.pdf',
        media_type: 'application/pdf',
        sha256: (letter.data.files as Array<{ sha256: string }>)[0]?.sha256,
      });
      const got = await op(app, caller, 'inbox.get', { id: inboxItemId });
      assert.equal(got.status, 200, JSON.stringify(got.body));
      assertError(
        await op(app, caller, 'mail.items.forwardToInbox', { id, expectedRevision: 2 }),
        409,
        'invalid_state',
      );
    });

    it('needs accounting:write as well as the mail scopes; a file the inbox does not take is refused', async () => {
      const mailOnly = await createCaller(app, { scopes: ['mail:read', 'mail:write'] });
      const id = String((await upload(app, mailOnly)).data.id);
      const refused = await op(app, mailOnly, 'mail.items.forwardToInbox', { id, expectedRevision: 1 });
      assertError(refused, 403, 'insufficient_scope');
      assert.deepEqual(refused.error.missing_scopes, ['accounting:write']);
      const both = await createCaller(app, {
        organizationId: mailOnly.organizationId,
        scopes: ['mail:read', 'mail:write', 'accounting:read', 'accounting:write'],
      });
      assertError(
        await op(app, both, 'mail.items.forwardToInbox', { id, expectedRevision: 1, file: 2 }),
        404,
        'not_found',
      );
      const tiff = await upload(app, both, {
        files: [
          { mediaType: 'image/tiff', contentBase64: b64(Buffer.from([0x49, 0x49, 0x2a, 0x00, 1, 2, 3])) },
        ],
      });
      const bad = await op(app, both, 'mail.items.forwardToInbox', { id: tiff.data.id, expectedRevision: 1 });
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
      assert.equal(bad.error.code, 'invalid_file');
      const letter = await op(app, both, 'mail.items.get', { id: tiff.data.id });
      assert.equal((letter.data.item as { revision: number }).revision, 1, 'nothing changed');
      assert.ok(PDF.length > 0);
    });
  });
}
