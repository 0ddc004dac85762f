import { readBestEInvoice, readEInvoice } from './einvoice.ts';
import { finish } from './finish.ts';
import { assertImageWithinLimits } from './image-size.ts';
import { findInvoiceAttachments } from './pdf-attachments.ts';
import { ocrImage, ocrPdf, pdfPageTexts, type ToolBudget } from './pdf-text.ts';
import { sniffType } from './sniff.ts';
import { readText } from './text/heuristics.ts';
import { hasCommand } from './tools.ts';
import {
  ExtractionFailure,
  type ExtractionInput,
  type ExtractionLimits,
  type ExtractionResult,
} from './types.ts';

// The extraction itself, run inside the sandbox child (see extract.ts for the isolation). Order matters:
// size, then magic bytes, then the cheap header checks, and only then any parser or child process.

/** Below this many letters and digits a PDF's text layer is treated as absent (a scan). */
const MIN_TEXT_CHARS = 20;

export async function extractInProcess(input: ExtractionInput, limits: ExtractionLimits, deadline: number) {
  try {
    return await run(input, limits, deadline);
  } catch (err) {
    if (err instanceof ExtractionFailure)
      return { status: 'failed', code: err.code, reason: err.message } as const;
    throw err;
  }
}

async function run(
  input: ExtractionInput,
  limits: ExtractionLimits,
  deadline: number,
): Promise<ExtractionResult> {
  const { bytes } = input;
  if (bytes.length > limits.maxBytes)
    throw new ExtractionFailure('too_large', `file exceeds ${limits.maxBytes} bytes`);
  const type = sniffType(bytes, input.fileName, input.mediaType);
  const budget: ToolBudget = { deadline, maxOutputBytes: limits.maxInflatedBytes };
  const ocr = limits.ocr && hasCommand('tesseract');

  if (type === 'xml') {
    const { syntax, fields } = readEInvoice(bytes);
    return finish(syntax === 'ubl' ? 'einvoice_ubl' : 'einvoice_cii', fields);
  }
  if (type === 'pdf') {
    const einvoice = readBestEInvoice(await findInvoiceAttachments(bytes, limits.maxInflatedBytes));
    if (einvoice) return finish('facturx', einvoice.fields);
    if (!hasCommand('pdftotext'))
      return finish('pdf_text', { taxLines: [], lineItems: [] }, ['reader_unavailable']);
    const pages = await pdfPageTexts(bytes, budget);
    if (pages.join('').replace(/[^\p{L}\p{N}]/gu, '').length >= MIN_TEXT_CHARS) {
      return finish('pdf_text', readText(pages, 'text'));
    }
    if (!ocr) return finish('pdf_text', { taxLines: [], lineItems: [] }, ['no_text', 'ocr_unavailable']);
    return finish('image_ocr', readText(await ocrPdf(bytes, limits.maxPixels, budget), 'ocr'));
  }
  assertImageWithinLimits(bytes, type, limits.maxPixels);
  if (!ocr) return finish('image_ocr', { taxLines: [], lineItems: [] }, ['ocr_unavailable']);
  return finish('image_ocr', readText(await ocrImage(bytes, limits.maxPixels, budget), 'ocr'));
}
