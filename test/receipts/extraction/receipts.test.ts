import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractReceipt } from '../../../src/receipts/extraction/index.ts';
import { pdfPageTexts } from '../../../src/receipts/extraction/pdf-text.ts';
import { checkFields } from './fixtures/check.ts';
import { receipts } from './fixtures/receipts.ts';
import { renderReceipt } from './fixtures/render.ts';

// Generated PDF receipts through their text layer: every field must equal the definition.

describe('receipts extraction: generated PDF receipts', () => {
  for (const def of receipts) {
    it(`reads ${def.id} (${def.layout}, ${def.lang})`, async () => {
      const pdf = await renderReceipt(def);
      const result = await extractReceipt({
        bytes: pdf,
        fileName: `${def.id}.pdf`,
        mediaType: 'application/pdf',
      });
      assert.equal(
        result.status,
        'ready',
        result.status === 'failed' ? result.reason : result.reasons.join(),
      );
      assert.equal(result.kind, 'pdf_text');
      const wrong = Object.entries(checkFields(def, result))
        .filter(([, right]) => !right)
        .map(([field]) => field);
      assert.deepEqual(wrong, []);
    });
  }

  it('points each text value at its span in the page text', async () => {
    const def = receipts.find((r) => r.id === 'saas-de-rechnung');
    assert.ok(def);
    const pdf = await renderReceipt(def);
    const pages = await pdfPageTexts(pdf, { deadline: Date.now() + 5000, maxOutputBytes: 1_000_000 });
    const result = await extractReceipt({ bytes: pdf, fileName: 'r.pdf', mediaType: 'application/pdf' });
    assert.ok(result.status === 'ready');
    const spanOf = (source: unknown) => {
      const s = source as { kind: string; page: number; start: number; end: number };
      assert.equal(s.kind, 'text');
      return pages[s.page - 1]?.slice(s.start, s.end);
    };
    assert.equal(spanOf(result.fields.merchant?.source), 'Datenwerk GmbH');
    assert.equal(spanOf(result.fields.documentNumber?.source), 'RE-2024-0311');
    assert.equal(spanOf(result.fields.date?.source), '30.11.2024');
    assert.equal(spanOf(result.fields.totalMinor?.source), '397,46');
    for (const field of [result.fields.merchant, result.fields.totalMinor, result.fields.date]) {
      assert.ok(field && field.confidence > 0.5 && field.confidence < 1);
    }
  });
});
