import { serveSandbox } from '../../lib/sandbox/child.ts';
import { extractInProcess } from './extract-core.ts';
import type { ExtractionInput, ExtractionLimits } from './types.ts';

// Entry of the receipt extraction's sandbox child (scripts/build.mjs bundles it as
// extraction-sandbox.mjs). The tools it starts (pdftotext, pdftoppm, tesseract) share its process
// group and its OS memory limit, so a kill on timeout or failure reaches them too.

export interface ExtractionJob {
  input: ExtractionInput;
  limits: ExtractionLimits;
  deadline: number;
}

serveSandbox({
  extract: async (message) => {
    const job = message as ExtractionJob;
    const input = { ...job.input, bytes: Buffer.from(job.input.bytes) };
    return extractInProcess(input, job.limits, job.deadline);
  },
});
