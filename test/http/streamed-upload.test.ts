import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { streamField } from '../../src/http/streamed-upload.ts';
import { STREAMED_PLACEHOLDER, type StreamedUpload } from '../../src/operations/uploads.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { call, freshKey } from '../support/http.ts';
import { ublReceipt } from '../support/receipts.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Runs `body` through the field stream in pieces of `size` bytes; returns what passed and the upload. */
async function throughStream(
  body: string,
  size: number,
  declaredBodyBytes?: number,
): Promise<{ passed: string; upload: StreamedUpload | undefined }> {
  const source = new PassThrough();
  let upload: StreamedUpload | undefined;
  const out = streamField(
    source,
    'contentBase64',
    (u) => {
      upload = u;
    },
    declaredBodyBytes,
  );
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => out.on('end', resolve));
  const bytes = Buffer.from(body, 'utf8');
  for (let i = 0; i < bytes.length; i += size) source.write(bytes.subarray(i, i + size));
  source.end();
  await ended;
  return { passed: Buffer.concat(chunks).toString('utf8'), upload };
}

describe('streamField: a file field decoded while the body arrives', () => {
  const file = Buffer.from('Date,Description,Amount\n2026-01-15,Coffee, -4.50\n\u00ff\u0000binary?/+');
  const base64 = file.toString('base64');

  it('decodes the top-level field at every chunk boundary and passes the rest on', async () => {
    const body = JSON.stringify({
      accountId: 'a',
      nested: { contentBase64: 'not me' },
      contentBase64: base64,
    });
    // Without a declared length the file grows as it comes; with one it is written in place.
    for (const [size, declared] of [1, 2, 3, 5, 7, 64, body.length].flatMap((n) => [
      [n, undefined],
      [n, Buffer.byteLength(body)],
    ])) {
      const { passed, upload } = await throughStream(body, size as number, declared);
      const parsed = JSON.parse(passed);
      assert.equal(parsed.contentBase64, STREAMED_PLACEHOLDER, `size ${size}`);
      assert.deepEqual(parsed.nested, { contentBase64: 'not me' }, `size ${size}`);
      assert.equal(parsed.accountId, 'a');
      assert.deepEqual(upload?.bytes, file, `size ${size}`);
      assert.equal(upload?.textSha256, sha(base64), `size ${size}`);
    }
  });

  it('keeps only the small rest of a large body', async () => {
    const file = Buffer.alloc(5 * 1024 * 1024 + 1);
    for (let i = 0; i < file.length; i += 997) file[i] = i & 0xff;
    const body = JSON.stringify({ fileName: 'x', contentBase64: file.toString('base64') });
    for (const declared of [undefined, body.length]) {
      const { passed, upload } = await throughStream(body, 65536, declared);
      assert.ok(passed.length < 100, passed);
      assert.ok(upload?.bytes?.equals(file), `declared ${declared}`);
    }
  });

  it('reads escaped slashes as a JSON parser does, and refuses any other escape or character', async () => {
    const withSlash = Buffer.from([0xff, 0xff, 0xff, 0xfb, 0xef]).toString('base64');
    assert.match(withSlash, /\//);
    const escaped = JSON.stringify({ contentBase64: withSlash }).replaceAll('/', '\\/');
    const slashed = await throughStream(escaped, 3);
    assert.deepEqual(slashed.upload?.bytes, Buffer.from([0xff, 0xff, 0xff, 0xfb, 0xef]));
    assert.equal(slashed.upload?.textSha256, sha(withSlash));
    // Any character may be written \uXXXX (.NET escapes "+" so): read as the parser reads it.
    const plus = Buffer.from([0xfb, 0xef, 0xbe]).toString('base64');
    assert.equal(plus, '++++');
    const unicode = await throughStream('{"contentBase64":"\\u002B\\u002b++"}', 3);
    assert.deepEqual(unicode.upload?.bytes, Buffer.from([0xfb, 0xef, 0xbe]));
    assert.equal(unicode.upload?.textSha256, sha(plus));
    for (const text of [
      'QUJD\\nREVG',
      'QUJD REVG',
      'QUJDRA=x',
      'QUJDRA',
      'QQ===',
      'QUJD\\"REVG',
      'QUJ\\u00e9',
    ]) {
      const { passed, upload } = await throughStream(`{"contentBase64":"${text}"}`, 2);
      assert.equal(JSON.parse(passed).contentBase64, STREAMED_PLACEHOLDER, text);
      assert.equal(upload?.bytes, undefined, text);
      // Invalid text never shares a digest with valid text (nor with its own valid prefix).
      assert.match(upload?.textSha256 ?? '', /^invalid:/, text);
    }
    // Text that is not a JSON string stays invalid JSON for the parser, as when it was not streamed.
    for (const text of ['QUJ\\u00zz', 'QUJD\\qREVG', 'QUJD\nREVG', 'QUJD\tREVG']) {
      const { passed, upload } = await throughStream(`{"contentBase64":"${text}","fileName":"x"}`, 2);
      assert.throws(() => JSON.parse(passed), SyntaxError, text);
      assert.throws(() => JSON.parse(`{"contentBase64":"${text}"}`), SyntaxError, 'the fixture itself');
      assert.equal(upload, undefined, text);
    }
  });

  it('leaves what it must not stream to the parser: an empty value, a non-string, an escaped key, a duplicate', async () => {
    const empty = await throughStream('{"contentBase64":""}', 1);
    assert.equal(JSON.parse(empty.passed).contentBase64, '');
    assert.equal(empty.upload, undefined);
    const number = await throughStream('{"contentBase64":12}', 1);
    assert.equal(JSON.parse(number.passed).contentBase64, 12);
    const escapedKey = await throughStream('{"content\\u0042ase64":"QUJD"}', 1);
    assert.equal(JSON.parse(escapedKey.passed).contentBase64, 'QUJD');
    assert.equal(escapedKey.upload, undefined);
    // The last duplicate wins, as JSON.parse reads it; the streamed first one is not what counts.
    const twice = await throughStream('{"contentBase64":"QUJD","contentBase64":"REVG"}', 4);
    assert.equal(JSON.parse(twice.passed).contentBase64, 'REVG');
    // An empty first value is no upload: the next occurrence (the one the parser keeps) streams.
    const emptyFirst = await throughStream('{"contentBase64":"","contentBase64":"QUJD"}', 5);
    assert.equal(JSON.parse(emptyFirst.passed).contentBase64, STREAMED_PLACEHOLDER);
    assert.deepEqual(emptyFirst.upload?.bytes, Buffer.from('ABC'));
    // A key that merely starts like the field, and a value of the field's name, are not the field.
    const lookalike = await throughStream('{"contentBase64x":"QUJD","k":"contentBase64"}', 1);
    assert.deepEqual(JSON.parse(lookalike.passed), { contentBase64x: 'QUJD', k: 'contentBase64' });
  });
});

for (const dialect of DIALECTS) {
  describe(`streamed uploads through the API (${dialect})`, () => {
    let app: TestApp;
    let caller: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      caller = await createCaller(app);
    });
    after(() => app?.close());

    const uploadBody = (contentBase64: string) =>
      JSON.stringify({ fileName: 'r.xml', mediaType: 'application/xml', contentBase64 });

    it('stores the same file whether slashes are escaped or not, and replays a reused key for the same content or refuses it for other content', async () => {
      const bytes = ublReceipt({
        id: 'STREAM-1',
        merchant: 'Caf??',
        date: '2026-01-15',
        amountMinor: 1230n,
      });
      const body = uploadBody(bytes.toString('base64'));
      assert.match(bytes.toString('base64'), /\//, 'the file text holds a slash to escape');
      const key = freshKey();
      const first = await call(
        app.baseUrl,
        'receipts.upload',
        {},
        { token: caller.token, rawBody: body, idempotencyKey: key },
      );
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const item = (first.data as { item: { id: string } }).item;
      // The same bytes written with escaped slashes are the same request: replayed.
      const again = await call(
        app.baseUrl,
        'receipts.upload',
        {},
        { token: caller.token, rawBody: body.replaceAll('/', '\\/'), idempotencyKey: key },
      );
      assert.equal(again.status, 200);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      // Other bytes under the same key are refused.
      const other = await call(
        app.baseUrl,
        'receipts.upload',
        {},
        {
          token: caller.token,
          rawBody: uploadBody(
            ublReceipt({ id: 'STREAM-2', merchant: 'Other', date: '2026-01-15', amountMinor: 100n }).toString(
              'base64',
            ),
          ),
          idempotencyKey: key,
        },
      );
      assert.equal(other.status, 400, JSON.stringify(other.body));
      assert.equal(other.error.code, 'idempotency_key_reused');
      // What was stored is the file byte for byte.
      const stored = await app.services.db.kysely
        .selectFrom('receipts')
        .select('sha256')
        .where('id', '=', item.id)
        .executeTakeFirstOrThrow();
      assert.equal(stored.sha256, createHash('sha256').update(bytes).digest('hex'));
    });

    it('refuses invalid base64 and the placeholder sent as text with the same invalid_file error', async () => {
      for (const text of ['QUJD\\nREVG', STREAMED_PLACEHOLDER]) {
        const body =
          text === STREAMED_PLACEHOLDER
            ? JSON.stringify({
                fileName: 'r.xml',
                mediaType: 'application/xml',
                'content\u0042ase64': text,
              }).replace('"contentBase64"', '"content\\u0042ase64"')
            : uploadBody('').replace('""', `"${text}"`);
        const res = await call(app.baseUrl, 'receipts.upload', {}, { token: caller.token, rawBody: body });
        assert.equal(res.status, 400, `${text}: ${JSON.stringify(res.body)}`);
        assert.equal(res.error.code, 'invalid_file', text);
        assert.equal(res.error.field, 'contentBase64', text);
      }
      // A raw line break in the field is invalid JSON, as it was before the field was streamed.
      const raw = await call(
        app.baseUrl,
        'receipts.upload',
        {},
        { token: caller.token, rawBody: uploadBody('').replace('""', '"QUJD\nREVG"') },
      );
      assert.equal(raw.status, 400, JSON.stringify(raw.body));
      assert.equal(raw.error.code, 'invalid_json');
      // An unfinished field is invalid JSON, as before.
      const cut = await call(
        app.baseUrl,
        'receipts.upload',
        {},
        { token: caller.token, rawBody: '{"contentBase64":"QUJD' },
      );
      assert.equal(cut.status, 400);
      assert.equal(cut.error.code, 'invalid_json');
    });
  });
}
