import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/contract/errors.ts';
import {
  agreementSandboxLimits,
  renderSignedPdfInSandbox,
} from '../../src/contractors/agreement-sandboxed.ts';
import { longWordDraft, pdfObjectStreamBomb } from '../support/hostile-files.ts';

// Signing renders in a sandbox child: the PDF comes back whole, a bomb template is refused as
// before (invalid_file, decompression_limit), and each sandbox limit is a 400 naming its reason.

const facts = {
  agreementId: 'agr_1',
  title: 'Agreement',
  fileName: 'draft.md',
  mediaType: 'text/markdown',
  documentSha256: '0'.repeat(64),
  signedName: 'Ada',
  signedAt: '2026-11-28T00:00:00Z',
  clientAddress: '127.0.0.1',
  consentText: 'I agree.',
};

const invalidFile = (reason: string) => (error: unknown) => {
  assert.ok(error instanceof AppError, String(error));
  assert.equal(error.code, 'invalid_file');
  assert.deepEqual(error.details, { reason });
  return true;
};

async function withLimits<T>(
  limits: Partial<typeof agreementSandboxLimits>,
  work: () => Promise<T>,
): Promise<T> {
  const saved = { ...agreementSandboxLimits };
  Object.assign(agreementSandboxLimits, limits);
  try {
    return await work();
  } finally {
    Object.assign(agreementSandboxLimits, saved);
  }
}

describe('agreement rendering in the sandbox', () => {
  it('renders a 200,000-character one-word draft into a PDF', async () => {
    const pdf = await renderSignedPdfInSandbox(Buffer.from(longWordDraft(200_000)), facts);
    assert.ok(Buffer.isBuffer(pdf));
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  });

  it('a template whose object stream inflates past the cap: invalid_file, decompression_limit', async () => {
    await assert.rejects(
      renderSignedPdfInSandbox(pdfObjectStreamBomb(40 * 1024 * 1024), {
        ...facts,
        mediaType: 'application/pdf',
      }),
      invalidFile('decompression_limit'),
    );
  });

  it('past the time or output limit: invalid_file naming the sandbox reason', async () => {
    await withLimits({ timeoutMs: 1 }, () =>
      assert.rejects(
        renderSignedPdfInSandbox(Buffer.from(longWordDraft(200_000)), facts),
        invalidFile('parse_timeout'),
      ),
    );
    await withLimits({ maxOutputBytes: 1000 }, () =>
      assert.rejects(
        renderSignedPdfInSandbox(Buffer.from(longWordDraft(2_000)), facts),
        invalidFile('parse_output_too_large'),
      ),
    );
  });
});
