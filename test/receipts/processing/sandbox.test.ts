import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defaultLimits } from '../../../src/receipts/extraction/types.ts';
import { type UploadedItem, upload, uploadAndProcess } from '../../operations/receipts/helpers.ts';
import { type Caller, createCaller, startTestApp, type TestApp } from '../../support/app.ts';
import { DIALECTS } from '../../support/databases.ts';
import { pdfObjectStreamBombStreamed } from '../../support/hostile-files.ts';
import { call } from '../../support/http.ts';
import { einvoiceFixture } from '../extraction/einvoice-fixtures.ts';

// Receipts are read in a sandbox child (src/receipts/extraction/extract.ts): a PDF whose object
// streams inflate to gigabytes, at 1 MB and at the 10 MB limit, fails with its code while
// /healthz answers and this process (the service) keeps its memory; a child that runs out of
// its own memory fails the receipt with memory_limit and the next one reads.

/** Runs the jobs for an uploaded item while asking /healthz; every request sent meanwhile must answer 200. */
async function processWhileProbing(app: TestApp, caller: Caller, itemId: string) {
  let running = true;
  const statuses: number[] = [];
  const probing = (async () => {
    while (running) {
      const res = await fetch(`${app.baseUrl}/healthz`);
      await res.arrayBuffer();
      statuses.push(res.status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    await app.runJobs();
    const got = await call(app.baseUrl, 'inbox.get', { id: itemId }, { token: caller.token });
    assert.equal(got.status, 200);
    return got.data as UploadedItem;
  } finally {
    running = false;
    await probing;
    assert.ok(statuses.length > 0);
    assert.ok(
      statuses.every((s) => s === 200),
      String(statuses),
    );
  }
}

for (const dialect of DIALECTS) {
  describe(`receipts read in the sandbox (${dialect})`, () => {
    let app: TestApp;
    let caller: Caller;
    before(async () => {
      app = await startTestApp(dialect);
      caller = await createCaller(app);
    });
    after(() => app.close());

    it('a PDF whose object streams inflate to gigabytes fails too_large; the service keeps its memory', async () => {
      const oneMb = await pdfObjectStreamBombStreamed(1024 ** 3);
      const atLimit = await pdfObjectStreamBombStreamed(1024 ** 3, 9);
      assert.ok(oneMb.length < 1.1 * 1024 * 1024 && atLimit.length < defaultLimits.maxBytes);
      for (const [bytes, name] of [
        [oneMb, 'bomb-1mb.pdf'],
        [atLimit, 'bomb-limit.pdf'],
      ] as const) {
        // Measured from after the upload (the request body is the upload's cost, not the reading's).
        const res = await upload(app, caller, bytes, name, 'application/pdf');
        assert.equal(res.status, 200);
        const rssBefore = process.memoryUsage().rss;
        const item = await processWhileProbing(app, caller, (res.data as { item: { id: string } }).item.id);
        assert.equal(item.state, 'failed', name);
        assert.equal((item.failure as { code: string }).code, 'too_large', name);
        // Before the sandbox and the inflate cap, the 1 MB file alone raised RSS by 1.5 GB.
        const grown = process.memoryUsage().rss - rssBefore;
        assert.ok(grown < 100 * 1024 * 1024, `${name}: RSS grew ${Math.round(grown / 1024 / 1024)} MiB`);
      }
    });

    it('a child out of its memory fails the receipt with memory_limit; the next receipt reads', async () => {
      const notes = '<cbc:Note>x</cbc:Note>'.repeat(400_000);
      const xml = Buffer.from(
        `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">${notes}</Invoice>`,
      );
      const saved = { ...defaultLimits };
      Object.assign(defaultLimits, { maxHeapMb: 128, maxMemoryMb: 192 });
      try {
        // The same limits read a small e-invoice: it is the big file that broke them.
        const small = await uploadAndProcess(
          app,
          caller,
          einvoiceFixture('ubl-invoice.xml'),
          'small.xml',
          'application/xml',
        );
        assert.equal(small.state, 'ready', JSON.stringify(small.failure));
        const res = await upload(app, caller, xml, 'huge.xml', 'application/xml');
        const item = await processWhileProbing(app, caller, (res.data as { item: { id: string } }).item.id);
        assert.equal(item.state, 'failed');
        assert.equal((item.failure as { code: string }).code, 'memory_limit');
      } finally {
        Object.assign(defaultLimits, saved);
      }
      const ok = await uploadAndProcess(
        app,
        caller,
        einvoiceFixture('ubl-invoice.xml'),
        'ok.xml',
        'application/xml',
      );
      assert.equal(ok.state, 'ready');
    });
  });
}
