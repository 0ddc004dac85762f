import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { call, openApiCheckedFetch } from '../../support/http.ts';
import { assertError, auditFor, caller, eventsFor, OTHER_ID, startWithMembers } from './helpers.ts';

const MiB = 1024 * 1024;
const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
const DOCX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('word/document.xml')]);
const DOC = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(32)]);
const b64 = (content: Buffer) => content.toString('base64');
const sha = (content: Buffer) => createHash('sha256').update(content).digest('hex');

for (const dialect of DIALECTS) {
  describe(`contractors.templates (${dialect})`, () => {
    let app: TestApp;
    let admin: Caller;
    let finance: Caller;
    before(async () => {
      ({ app, admin, finance } = await startWithMembers(dialect));
    });
    after(() => app.close());

    const upload = caller(() => app, 'contractors.templates.upload');
    const draft = caller(() => app, 'contractors.templates.createDraft');
    const stored = (id: string) =>
      app.services.db.kysely
        .selectFrom('agreement_templates')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const countTemplates = async (caller: Caller) =>
      (
        await app.services.db.kysely
          .selectFrom('agreement_templates')
          .select('id')
          .where('organization_id', '=', caller.organizationId)
          .execute()
      ).length;

    it('stores a Markdown draft, audits and emits; get returns its text', async () => {
      app.clock.set('2026-05-01T10:00:00.000Z');
      const markdown = '# Services agreement\n\nPayment within 30 days — café ✓';
      const res = await draft(finance, { name: 'Standard', markdown });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const id = res.data.id as string;
      const bytes = Buffer.from(markdown, 'utf8');
      assert.deepEqual(res.data, {
        id,
        name: 'Standard',
        kind: 'markdown_draft',
        media_type: 'text/markdown',
        file_name: null,
        size_bytes: bytes.length,
        sha256: sha(bytes),
        created_by: finance.memberId,
        revision: 1,
        created_at: '2026-05-01T10:00:00.000Z',
        updated_at: '2026-05-01T10:00:00.000Z',
      });
      const row = await stored(id);
      assert.equal(row.organization_id, admin.organizationId);
      assert.ok(Buffer.from(row.content).equals(bytes));
      assert.deepEqual(await auditFor(app, id), [
        {
          operation: 'contractors.templates.createDraft',
          before: null,
          after: 1,
          actor: finance.memberId,
        },
      ]);
      assert.deepEqual(await eventsFor(app, id), [
        {
          type: 'agreement_template.created',
          data: {
            name: 'Standard',
            kind: 'markdown_draft',
            mediaType: 'text/markdown',
            sizeBytes: bytes.length,
          },
        },
      ]);
      const got = await call(app.baseUrl, 'contractors.templates.get', { id }, { token: admin.token });
      assert.equal(got.status, 200);
      assert.deepEqual(got.data, { ...res.data, markdown });
    });

    it('stores uploads of every accepted media type, byte for byte', async () => {
      const files: Array<[string, string, Buffer]> = [
        ['application/pdf', 'agreement.pdf', PDF],
        ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'agreement.docx', DOCX],
        ['application/msword', 'agreement.doc', DOC],
        ['text/plain', 'agreement.txt', Buffer.from('\ufeffPlain text agreement, naïve ✓\n', 'utf8')],
        ['text/markdown', 'agreement.md', Buffer.from('# Agreement\n', 'utf8')],
      ];
      for (const [mediaType, fileName, content] of files) {
        const res = await upload(admin, { name: fileName, fileName, mediaType, contentBase64: b64(content) });
        assert.equal(res.status, 200, `${mediaType}: ${JSON.stringify(res.body)}`);
        assert.equal(res.data.kind, 'uploaded_original');
        assert.equal(res.data.media_type, mediaType);
        assert.equal(res.data.file_name, fileName);
        assert.equal(res.data.size_bytes, content.length);
        assert.equal(res.data.sha256, sha(content));
        const row = await stored(res.data.id as string);
        assert.ok(Buffer.from(row.content).equals(content), mediaType);
        const got = await call(
          app.baseUrl,
          'contractors.templates.get',
          { id: res.data.id },
          { token: admin.token },
        );
        assert.equal(got.data.markdown, null);
        // Downloaded back: the JSON form, and the bytes themselves under Accept.
        const json = await call(
          app.baseUrl,
          'contractors.templates.download',
          { id: res.data.id },
          { token: finance.token, method: 'GET' },
        );
        assert.equal(json.status, 200, JSON.stringify(json.body));
        assert.deepEqual(
          [json.data.file_name, json.data.media_type, json.data.size_bytes, json.data.sha256],
          [fileName, mediaType, content.length, sha(content)],
        );
        assert.ok(Buffer.from(String(json.data.content_base64), 'base64').equals(content), mediaType);
        for (const accept of [mediaType, 'application/octet-stream']) {
          const file = await openApiCheckedFetch(
            `${app.baseUrl}/api/v1/accounting/contractors.templates.download?id=${String(res.data.id)}`,
            { headers: { authorization: `Bearer ${finance.token}`, accept } },
          );
          assert.equal(file.status, 200);
          assert.equal(file.headers.get('content-type')?.split(';')[0], mediaType, accept);
          assert.equal(
            file.headers.get('content-disposition'),
            `attachment; filename="${fileName}"; filename*=UTF-8''${fileName}`,
          );
          assert.ok(Buffer.from(await file.arrayBuffer()).equals(content), `${mediaType} as ${accept}`);
        }
      }
    });

    it('downloads a draft as <name>.md, with a safe name for any template name', async () => {
      const markdown = '# Consulting\n\nÉtat: signé ✓\n';
      const made = await draft(admin, { name: 'Q1/Q2: "Consulting" agreement', markdown });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const res = await call(
        app.baseUrl,
        'contractors.templates.download',
        { id: made.data.id },
        { token: admin.token },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.data.file_name, 'Q1 Q2 Consulting agreement.md');
      assert.equal(res.data.media_type, 'text/markdown');
      assert.equal(Buffer.from(String(res.data.content_base64), 'base64').toString('utf8'), markdown);
      const file = await openApiCheckedFetch(
        `${app.baseUrl}/api/v1/accounting/contractors.templates.download?id=${String(made.data.id)}`,
        { headers: { authorization: `Bearer ${admin.token}`, accept: 'text/markdown' } },
      );
      assert.equal(
        file.headers.get('content-disposition'),
        `attachment; filename="Q1_Q2_Consulting_agreement.md"; filename*=UTF-8''${encodeURIComponent('Q1 Q2 Consulting agreement.md')}`,
      );
      assert.equal(await file.text(), markdown);
    });

    it('downloads under names that need care: cut by code points, RFC 8187 filename*', async () => {
      const long = `${'a'.repeat(149)}😀x`;
      const made = await draft(admin, { name: long, markdown: '# Long' });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const url = `${app.baseUrl}/api/v1/accounting/contractors.templates.download?id=${String(made.data.id)}`;
      const file = await openApiCheckedFetch(url, {
        headers: { authorization: `Bearer ${admin.token}`, accept: 'text/markdown' },
      });
      assert.equal(file.status, 200);
      assert.equal(
        file.headers.get('content-disposition'),
        `attachment; filename="${'a'.repeat(149)}_.md"; filename*=UTF-8''${'a'.repeat(149)}%F0%9F%98%80.md`,
      );
      const fileName = "John's (v2)*!.pdf";
      const uploaded = await upload(admin, {
        name: 'Quoted',
        fileName,
        mediaType: 'application/pdf',
        contentBase64: b64(PDF),
      });
      assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
      const pdf = await openApiCheckedFetch(
        `${app.baseUrl}/api/v1/accounting/contractors.templates.download?id=${String(uploaded.data.id)}`,
        { headers: { authorization: `Bearer ${admin.token}`, accept: 'application/pdf' } },
      );
      assert.equal(
        pdf.headers.get('content-disposition'),
        `attachment; filename="John_s__v2___.pdf"; filename*=UTF-8''John%27s%20%28v2%29%2A%21.pdf`,
      );
    });

    it('accepts exactly 5 MiB and refuses one byte more', async () => {
      const big = Buffer.alloc(5 * MiB, 0x20);
      PDF.copy(big);
      const ok = await upload(admin, {
        name: 'Big',
        fileName: 'big.pdf',
        mediaType: 'application/pdf',
        contentBase64: b64(big),
      });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.data.size_bytes, 5 * MiB);
      const tooBig = Buffer.concat([big, Buffer.from(' ')]);
      const before = await countTemplates(admin);
      const refused = await upload(admin, {
        name: 'Too big',
        fileName: 'big.pdf',
        mediaType: 'application/pdf',
        contentBase64: b64(tooBig),
      });
      assertError(refused, 413, 'payload_too_large', 'contentBase64');
      const huge = await upload(admin, {
        name: 'Huge',
        fileName: 'huge.pdf',
        mediaType: 'application/pdf',
        contentBase64: b64(Buffer.concat([big, Buffer.alloc(MiB)])),
      });
      assertError(huge, 413, 'payload_too_large');
      assert.equal(await countTemplates(admin), before);
    });

    it('refuses files whose content does not match, and bad base64, with invalid_file', async () => {
      const before = await countTemplates(admin);
      const base = { name: 'Bad', fileName: 'bad.bin' };
      const cases: Array<[string, string]> = [
        ['application/pdf', b64(DOCX)],
        ['application/pdf', b64(Buffer.from('%PDF'))],
        ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', b64(PDF)],
        ['application/msword', b64(DOCX)],
        ['application/msword', b64(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))],
        ['text/plain', b64(Buffer.from([0x48, 0x69, 0xff, 0xfe]))],
        ['text/plain', b64(Buffer.from('nul\u0000byte'))],
        ['text/markdown', b64(Buffer.from([0xc3, 0x28]))],
        ['text/markdown', b64(PDF)],
        ['application/pdf', ''],
        ['application/pdf', 'JVBERi0x!'],
        ['application/pdf', 'JVBERi0'],
        ['application/pdf', 'JVBE\nRi0x'],
        ['application/pdf', 'JV=ERi0x'],
        ['application/pdf', 'JVBERi0x'.replace('+', '-').concat('-_-_')],
      ];
      for (const [mediaType, contentBase64] of cases) {
        const res = await upload(admin, { ...base, mediaType, contentBase64 });
        assertError(res, 400, 'invalid_file', 'contentBase64');
      }
      assert.equal(await countTemplates(admin), before);
    });

    it('refuses bad input with the exact code and field', async () => {
      const before = await countTemplates(admin);
      const good = { name: 'T', fileName: 'a.pdf', mediaType: 'application/pdf', contentBase64: b64(PDF) };
      const uploads: Array<[Record<string, unknown>, string, string]> = [
        [{ ...good, name: '' }, 'invalid_input', 'name'],
        [{ ...good, name: 'n'.repeat(201) }, 'invalid_input', 'name'],
        [{ ...good, fileName: '' }, 'invalid_input', 'fileName'],
        [{ ...good, fileName: '../etc/passwd' }, 'invalid_input', 'fileName'],
        [{ ...good, fileName: 'a\\b.pdf' }, 'invalid_input', 'fileName'],
        [{ ...good, fileName: 'a\nb.pdf' }, 'invalid_input', 'fileName'],
        [{ ...good, fileName: `${'f'.repeat(252)}.pdf` }, 'invalid_input', 'fileName'],
        [{ ...good, mediaType: 'image/png' }, 'invalid_input', 'mediaType'],
        [{ ...good, mediaType: 'APPLICATION/PDF' }, 'invalid_input', 'mediaType'],
        [{ ...good, contentBase64: 42 }, 'invalid_input', 'contentBase64'],
        [{ name: 'T', fileName: 'a.pdf', mediaType: 'application/pdf' }, 'invalid_input', 'contentBase64'],
        [{ ...good, content: 'x' }, 'unknown_field', 'content'],
        [{ ...good, idempotencyKey: 'k'.repeat(151) }, 'invalid_input', 'idempotencyKey'],
      ];
      for (const [input, code, field] of uploads) {
        const res = await call(app.baseUrl, 'contractors.templates.upload', input, {
          token: admin.token,
          idempotencyKey: typeof input.idempotencyKey === 'string' ? null : undefined,
        });
        assertError(res, 400, code, field);
      }
      const drafts: Array<[Record<string, unknown>, string, string]> = [
        [{ name: 'D' }, 'invalid_input', 'markdown'],
        [{ name: 'D', markdown: '' }, 'invalid_input', 'markdown'],
        [{ name: 'D', markdown: 'm'.repeat(200_001) }, 'invalid_input', 'markdown'],
        [{ name: 'D', markdown: 'nul \u0000 inside' }, 'invalid_input', 'markdown'],
        [{ name: 'D', markdown: 'lone \ud800 surrogate' }, 'invalid_input', 'markdown'],
        [{ markdown: '# x' }, 'invalid_input', 'name'],
        [{ name: 'D', markdown: '# x', kind: 'markdown_draft' }, 'unknown_field', 'kind'],
      ];
      for (const [input, code, field] of drafts) assertError(await draft(admin, input), 400, code, field);
      assert.equal(await countTemplates(admin), before);
      // The longest draft fits, even when every character is escaped in JSON.
      const longest = await draft(admin, { name: 'Longest', markdown: '\u2028'.repeat(200_000) });
      assert.equal(longest.status, 200, JSON.stringify(longest.body));
      assert.equal(longest.data.size_bytes, 600_000);
    });

    it('replays a retried upload once', async () => {
      const input = {
        name: 'Replay',
        fileName: 'r.pdf',
        mediaType: 'application/pdf',
        contentBase64: b64(PDF),
      };
      const first = await upload(admin, input, 'template-replay-0001');
      const again = await upload(admin, input, 'template-replay-0001');
      assert.equal(first.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const rows = await app.services.db.kysely
        .selectFrom('agreement_templates')
        .select('id')
        .where('organization_id', '=', admin.organizationId)
        .where('name', '=', 'Replay')
        .execute();
      assert.equal(rows.length, 1);
      const draftInput = { name: 'Replay draft', markdown: '# R' };
      const d1 = await draft(admin, draftInput, 'draft-replay-0001');
      const d2 = await draft(admin, draftInput, 'draft-replay-0001');
      assert.deepEqual(d2.body, d1.body);
    });

    it('lists templates newest first, pages, filters by kind, and stays in the organization', async () => {
      const org = await createCaller(app);
      const ids: string[] = [];
      for (const name of ['one', 'two', 'three']) {
        app.clock.advance(1000);
        const res = await draft(org, { name, markdown: `# ${name}` });
        ids.push(res.data.id as string);
      }
      app.clock.advance(1000);
      const uploaded = await upload(org, {
        name: 'four',
        fileName: 'four.pdf',
        mediaType: 'application/pdf',
        contentBase64: b64(PDF),
      });
      const all = await call(app.baseUrl, 'contractors.templates.list', {}, { token: org.token });
      assert.equal(all.status, 200);
      const items = all.data.items as Array<Record<string, unknown>>;
      assert.deepEqual(
        items.map((t) => t.name),
        ['four', 'three', 'two', 'one'],
      );
      assert.equal('content' in (items[0] ?? {}), false);
      assert.equal('markdown' in (items[0] ?? {}), false);
      assert.deepEqual(items[0], uploaded.data);
      const page = await call(
        app.baseUrl,
        'contractors.templates.list',
        { limit: 2, offset: 1 },
        { token: org.token },
      );
      assert.deepEqual(
        (page.data.items as Array<{ name: string }>).map((t) => t.name),
        ['three', 'two'],
      );
      assert.equal(page.data.nextOffset, 3);
      const drafts = await call(
        app.baseUrl,
        'contractors.templates.list',
        { kind: 'markdown_draft' },
        { token: org.token },
      );
      assert.deepEqual(
        (drafts.data.items as Array<{ id: string }>).map((t) => t.id),
        [...ids].reverse(),
      );
      assertError(
        await call(app.baseUrl, 'contractors.templates.list', { kind: 'pdf' }, { token: org.token }),
        400,
        'invalid_input',
        'kind',
      );
      assertError(
        await call(app.baseUrl, 'contractors.templates.list', { limit: 0 }, { token: org.token }),
        400,
        'invalid_input',
        'limit',
      );
    });

    it("answers 404 for another organization's template", async () => {
      const stranger = await createCaller(app);
      const theirs = await draft(stranger, { name: 'Theirs', markdown: '# secret' });
      const res = await call(
        app.baseUrl,
        'contractors.templates.get',
        { id: theirs.data.id },
        { token: admin.token },
      );
      assertError(res, 404, 'not_found', 'id');
      assertError(
        await call(app.baseUrl, 'contractors.templates.get', { id: OTHER_ID }, { token: admin.token }),
        404,
        'not_found',
        'id',
      );
      assertError(
        await call(
          app.baseUrl,
          'contractors.templates.download',
          { id: theirs.data.id },
          { token: admin.token },
        ),
        404,
        'not_found',
        'id',
      );
      const mine = await call(
        app.baseUrl,
        'contractors.templates.list',
        { limit: 100 },
        { token: admin.token },
      );
      assert.ok(!(mine.data.items as Array<{ id: string }>).some((t) => t.id === theirs.data.id));
    });

    it('needs accounting:write to add and accounting:read to list', async () => {
      const reader = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:read'],
      });
      assertError(await draft(reader, { name: 'R', markdown: '# r' }), 403, 'insufficient_scope');
      assertError(
        await upload(reader, {
          name: 'R',
          fileName: 'r.pdf',
          mediaType: 'application/pdf',
          contentBase64: b64(PDF),
        }),
        403,
        'insufficient_scope',
      );
      const writer = await createCaller(app, {
        organizationId: admin.organizationId,
        scopes: ['accounting:write'],
      });
      assertError(
        await call(app.baseUrl, 'contractors.templates.list', {}, { token: writer.token }),
        403,
        'insufficient_scope',
      );
      assertError(
        await call(app.baseUrl, 'contractors.templates.get', { id: OTHER_ID }, { token: writer.token }),
        403,
        'insufficient_scope',
      );
      assert.equal(
        (await call(app.baseUrl, 'contractors.templates.list', {}, { token: reader.token })).status,
        200,
      );
    });
  });
}
