import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PART_BYTES } from '../../src/files/parts.ts';
import { FileTooLargeError, readFile, sha256Of, storeFile } from '../../src/files/store.ts';
import { createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';

for (const dialect of DIALECTS) {
  describe(`file store (${dialect})`, () => {
    let app: TestApp;
    let org: string;
    let otherOrg: string;
    before(async () => {
      app = await startTestApp(dialect);
      org = (await createCaller(app)).organizationId;
      otherOrg = (await createCaller(app)).organizationId;
    });
    after(() => app?.close());
    const now = () => new Date().toISOString();

    it('stores by content: the same bytes twice are one file; the first name stays', async () => {
      const db = app.services.db.kysely;
      const bytes = Buffer.from('%PDF-1.4 receipt bytes');
      const first = await storeFile(db, {
        organizationId: org,
        bytes,
        mediaType: 'application/pdf',
        fileName: 'a.pdf',
        now: now(),
      });
      const second = await storeFile(db, {
        organizationId: org,
        bytes,
        mediaType: 'application/pdf',
        fileName: 'b.pdf',
        now: now(),
      });
      assert.equal(first.created, true);
      assert.equal(second.created, false);
      assert.equal(second.file.id, first.file.id);
      assert.equal(second.file.fileName, 'a.pdf');
      assert.equal(first.file.sha256, sha256Of(bytes));
      const read = await readFile(db, org, first.file.id);
      assert.ok(read);
      assert.deepEqual(read.bytes, bytes);
      // Another organization neither sees it nor shares it.
      assert.equal(await readFile(db, otherOrg, first.file.id), undefined);
      const theirs = await storeFile(db, {
        organizationId: otherOrg,
        bytes,
        mediaType: 'application/pdf',
        fileName: 'c.pdf',
        now: now(),
      });
      assert.notEqual(theirs.file.id, first.file.id);
    });

    it('refuses a file over the limit and stores nothing', async () => {
      const db = app.services.db.kysely;
      await assert.rejects(
        storeFile(db, {
          organizationId: org,
          bytes: Buffer.alloc(2048),
          mediaType: 'x/y',
          fileName: 'big',
          now: now(),
          maxBytes: 1024,
        }),
        FileTooLargeError,
      );
    });

    it('never serves bytes that no longer match their hash', async () => {
      const db = app.services.db.kysely;
      const { file } = await storeFile(db, {
        organizationId: org,
        bytes: Buffer.from('original'),
        mediaType: 'text/plain',
        fileName: 'o.txt',
        now: now(),
      });
      await db
        .updateTable('file_parts')
        .set({ bytes: Buffer.from('tampered') })
        .where('file_id', '=', file.id)
        .execute();
      await assert.rejects(readFile(db, org, file.id), /does not match its hash/);
    });

    it('keeps a large file a MiB per part and reads it back whole, byte for byte', async () => {
      const db = app.services.db.kysely;
      // 2.5 MiB of varied bytes: three parts, the last one short.
      const bytes = Buffer.alloc(PART_BYTES * 2 + PART_BYTES / 2);
      for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31 + (i >> 11)) & 0xff;
      const { file } = await storeFile(db, {
        organizationId: org,
        bytes,
        mediaType: 'application/pdf',
        fileName: 'big.pdf',
        now: now(),
      });
      const parts = await db
        .selectFrom('file_parts')
        .select(['part', 'organization_id'])
        .where('file_id', '=', file.id)
        .orderBy('part')
        .execute();
      assert.deepEqual(
        parts.map((p) => [Number(p.part), p.organization_id]),
        [
          [0, org],
          [1, org],
          [2, org],
        ],
      );
      const read = await readFile(db, org, file.id);
      assert.equal(read?.size, bytes.length);
      assert.ok(read?.bytes.equals(bytes));
      assert.equal(await readFile(db, otherOrg, file.id), undefined);
    });

    it('never serves a file with a part missing', async () => {
      const db = app.services.db.kysely;
      const bytes = Buffer.alloc(PART_BYTES + 10, 7);
      const { file } = await storeFile(db, {
        organizationId: org,
        bytes,
        mediaType: 'application/pdf',
        fileName: 'gap.pdf',
        now: now(),
      });
      await db.deleteFrom('file_parts').where('file_id', '=', file.id).where('part', '=', 0).execute();
      await assert.rejects(readFile(db, org, file.id), /missing part 0/);
    });
  });
}
