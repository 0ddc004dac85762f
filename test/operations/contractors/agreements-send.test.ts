import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call } from '../../support/http.ts';
import {
  assertError,
  auditFor,
  caller,
  eventsFor,
  makeContractor,
  makeRole,
  ok,
  signAs,
  startWithMembers,
} from './helpers.ts';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const pdfText = (bytes: Buffer) =>
  execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString('utf8');

async function samplePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText('Original master agreement page one', {
    x: 50,
    y: 700,
    size: 12,
    font: await doc.embedFont(StandardFonts.Helvetica),
  });
  return Buffer.from(await doc.save());
}

for (const dialect of DIALECTS) {
  describe(`contractors.agreements.* (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    let contractor: { id: string };
    let draftId: string;
    before(async () => {
      ({ app, admin, finance } = await startWithMembers(dialect));
      const role = await makeRole(app, admin, { name: 'Bookkeeper' });
      contractor = await makeContractor(app, admin, {
        displayName: 'Ada',
        legalName: 'Ada Lovelace',
        jobRoleId: role.id,
      });
      draftId = (
        await ok(app, admin, 'contractors.templates.createDraft', {
          name: 'Services agreement',
          markdown:
            '# Services agreement\n\nBetween {{organization.name}} and {{contractor.legalName}} ({{role.name}}), dated {{date}}.',
        })
      ).id;
    });
    after(() => app.close());

    const send = caller(() => app, 'contractors.agreements.send');
    const voidIt = caller(() => app, 'contractors.agreements.void');
    const download = (id: string) =>
      call(app.baseUrl, 'contractors.agreements.download', { id }, { token: finance.token });

    it('renders a draft with the contractor fields, keeps its SHA-256, audits and emits', async () => {
      const res = await send(finance, { contractorId: contractor.id, templateId: draftId });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.status, 'sent');
      assert.equal(res.data.media_type, 'text/markdown');
      assert.equal(res.data.file_name, 'Services agreement.md');
      const file = await download(String(res.data.id));
      const text = Buffer.from(String(file.data.content_base64), 'base64');
      assert.equal(
        text.toString('utf8'),
        '# Services agreement\n\nBetween Test org and Ada Lovelace (Bookkeeper), dated 2026-01-15.',
      );
      assert.equal(res.data.document_sha256, sha(text));
      assert.equal(file.data.signed, false);
      assert.deepEqual(await auditFor(app, String(res.data.id)), [
        { operation: 'contractors.agreements.send', before: null, after: 1, actor: finance.memberId },
      ]);
      assert.equal((await eventsFor(app, String(res.data.id), 'agreement.sent')).length, 1);
    });

    it('refuses unknown placeholders naming the allowed ones, and unknown ids', async () => {
      const bad = await ok(app, admin, 'contractors.templates.createDraft', {
        name: 'Bad',
        markdown: 'Pay {{contractor.bankAccount}}',
      });
      const res = await send(finance, { contractorId: contractor.id, templateId: bad.id });
      assertError(res, 400, 'invalid_input', 'templateId');
      assert.match(res.error.message, /contractor\.bankAccount.*\{\{contractor\.legalName\}\}/);
      const stranger = await createCaller(app);
      assertError(
        await send(stranger, { contractorId: contractor.id, templateId: draftId }),
        404,
        'not_found',
        'contractorId',
      );
      assertError(
        await send(finance, {
          contractorId: contractor.id,
          templateId: '01927f3e-6a1c-7b2d-8e4f-0123456789ab',
        }),
        404,
        'not_found',
        'templateId',
      );
      const list = await call(
        app.baseUrl,
        'contractors.agreements.list',
        { contractorId: contractor.id, status: 'voided' },
        { token: finance.token },
      );
      assert.deepEqual(list.data.items, []);
    });

    it('signs once: the signed PDF carries the document and a signature page; signing twice is refused', async () => {
      const sent = await ok(app, finance, 'contractors.agreements.send', {
        contractorId: contractor.id,
        templateId: draftId,
        title: 'MSA 2026',
      });
      await signAs(app, admin.organizationId, contractor.id, sent, 'Ada King Lovelace');
      const got = await ok(app, finance, 'contractors.agreements.get', { id: sent.id });
      assert.equal(got.status, 'signed');
      assert.equal(got.signed_name, 'Ada King Lovelace');
      assert.equal(got.signed_address, '127.0.0.1');
      assert.equal(got.signed_at, app.clock.now().toISOString());
      const file = await download(sent.id);
      assert.equal(file.data.signed, true);
      assert.equal(file.data.media_type, 'application/pdf');
      assert.equal(file.data.file_name, 'MSA 2026 (signed).pdf');
      const text = pdfText(Buffer.from(String(file.data.content_base64), 'base64'));
      assert.match(text, /Services agreement/);
      assert.match(text, /Between Test org and Ada Lovelace/);
      assert.match(text, /Signature page/);
      assert.match(text, /Signed by: Ada King Lovelace/);
      assert.match(text, /Client address: 127\.0\.0\.1/);
      assert.ok(text.includes(String(sent.document_sha256)));
      const events = await eventsFor(app, sent.id, 'agreement.signed');
      assert.equal(events.length, 1);
      assert.equal(events[0]?.data.documentSha256, sent.document_sha256);
      await assert.rejects(
        signAs(app, admin.organizationId, contractor.id, sent),
        (e: { code?: string }) => e.code === 'agreement_already_signed',
      );
      // Another contractor of the same organization cannot sign it: it is not theirs.
      const other = await makeContractor(app, admin);
      await assert.rejects(
        signAs(app, admin.organizationId, other.id, sent),
        (e: { code?: string }) => e.code === 'not_found',
      );
    });

    it('appends the signature page to an uploaded PDF original, keeping its pages', async () => {
      const original = await samplePdf();
      const t = await ok(app, admin, 'contractors.templates.upload', {
        name: 'Master agreement',
        fileName: 'master.pdf',
        mediaType: 'application/pdf',
        contentBase64: original.toString('base64'),
      });
      const sent = await ok(app, finance, 'contractors.agreements.send', {
        contractorId: contractor.id,
        templateId: t.id,
      });
      assert.equal(sent.document_sha256, sha(original));
      await signAs(app, admin.organizationId, contractor.id, sent);
      const pdf = Buffer.from(String((await download(sent.id)).data.content_base64), 'base64');
      assert.equal((await PDFDocument.load(pdf)).getPageCount(), 2);
      const text = pdfText(pdf);
      assert.match(text, /Original master agreement page one/);
      assert.match(text, /Signed by: Ada Lovelace/);
    });

    it('renders the signed PDF outside any write transaction; a void meanwhile still wins', async () => {
      const { prepareSignature, signAgreement } = await import('../../../src/contractors/agreements.ts');
      const { withUnit } = await import('../../../src/unit/with-unit.ts');
      const sent = await send(finance, { contractorId: contractor.id, templateId: draftId });
      const signature = {
        fullName: 'Ada Lovelace',
        consent: true,
        clientAddress: '127.0.0.1',
        userAgent: 'test',
        documentSha256: String(sent.data.document_sha256),
      };
      // The render runs while another unit holds the write transaction open: on SQLite that is
      // the one writer, so a render that needed it would wait out the busy timeout and fail.
      const prepared = await withUnit(
        app.services,
        { organizationId: admin.organizationId, actor: { type: 'job', job: 'test' }, operation: 'test.hold' },
        async (unit) => {
          await unit.db
            .updateTable('contractors')
            .set({ updated_at: app.clock.now().toISOString() })
            .where('id', '=', contractor.id)
            .execute();
          return prepareSignature(
            app.services.db.readKysely,
            admin.organizationId,
            contractor.id,
            String(sent.data.id),
            signature,
            app.clock.now(),
          );
        },
      );
      assert.equal(pdfText(prepared.signedPdf).includes('Signed by: Ada Lovelace'), true);
      // Voided between the render and the write: the stored row is refused, nothing signed.
      await voidIt(finance, { id: sent.data.id, expectedRevision: 1, reason: 'Replaced' });
      await assert.rejects(
        withUnit(
          app.services,
          {
            organizationId: admin.organizationId,
            actor: { type: 'contractor', contractorId: contractor.id },
            operation: 'portal.agreements.sign',
          },
          (unit) => signAgreement(unit, contractor.id, prepared),
        ),
        (e: { code?: string }) => e.code === 'agreement_voided',
      );
      const got = await ok(app, finance, 'contractors.agreements.get', { id: sent.data.id });
      assert.equal(got.status, 'voided');
      assert.equal(got.signed_at, null);
    });

    it('voids: a voided agreement cannot be signed or voided again; stale revisions conflict', async () => {
      const sent = await ok(app, finance, 'contractors.agreements.send', {
        contractorId: contractor.id,
        templateId: draftId,
      });
      assertError(
        await voidIt(finance, { id: sent.id, expectedRevision: 2, reason: 'Wrong one' }),
        409,
        'revision_conflict',
      );
      const voided = await voidIt(finance, { id: sent.id, expectedRevision: 1, reason: 'Wrong one' });
      assert.equal(voided.status, 200, JSON.stringify(voided.body));
      assert.equal(voided.data.status, 'voided');
      assert.equal(voided.data.void_reason, 'Wrong one');
      await assert.rejects(
        signAs(app, admin.organizationId, contractor.id, sent),
        (e: { code?: string }) => e.code === 'agreement_voided',
      );
      assertError(
        await voidIt(finance, { id: sent.id, expectedRevision: 2, reason: 'Again' }),
        409,
        'agreement_voided',
      );
      const row = await app.services.db.kysely
        .selectFrom('contractor_agreements')
        .select(['status', 'signed_at', 'revision'])
        .where('id', '=', sent.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual([row.status, row.signed_at, row.revision], ['voided', null, 2]);
    });

    it('lists by contractor and status and keeps organizations apart', async () => {
      const res = await call(
        app.baseUrl,
        'contractors.agreements.list',
        { contractorId: contractor.id },
        { token: finance.token },
      );
      assert.equal(res.status, 200);
      const items = res.data.items as Array<{ status: string; contractor_id: string }>;
      assert.ok(items.length >= 4);
      assert.ok(items.every((i) => i.contractor_id === contractor.id));
      const signed = await call(
        app.baseUrl,
        'contractors.agreements.list',
        { status: 'signed' },
        { token: finance.token },
      );
      assert.ok((signed.data.items as Array<{ status: string }>).every((i) => i.status === 'signed'));
      const stranger = await createCaller(app);
      const theirs = await call(app.baseUrl, 'contractors.agreements.list', {}, { token: stranger.token });
      assert.deepEqual(theirs.data.items, []);
      const first = items[0] as unknown as { id: string };
      assertError(
        await call(
          app.baseUrl,
          'contractors.agreements.download',
          { id: first.id },
          { token: stranger.token },
        ),
        404,
        'not_found',
      );
    });
  });
}
