import { serveSandbox } from '../lib/sandbox/child.ts';
import { renderSignedPdf, type SignatureFacts } from './agreement-pdf.ts';

// Entry of the agreement renderer's sandbox child (scripts/build.mjs bundles it as
// agreement-sandbox.mjs): reads the uploaded template or draft and renders the signed PDF.

export interface RenderJob {
  document: Buffer;
  facts: SignatureFacts;
}

serveSandbox({
  render: async (message) => {
    const job = message as RenderJob;
    return renderSignedPdf(Buffer.from(job.document), job.facts);
  },
});
