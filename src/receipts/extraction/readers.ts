import { execFile } from 'node:child_process';
import { forgetCommandLookups, hasCommand } from './tools.ts';

// Which of the system programs the receipt reader uses are on this machine: poppler's pdftotext
// (PDF text layers) and pdftoppm (scanned PDFs to images), Tesseract and its language models.
// `serve` prints it at start, /readyz and the dashboard's Home show what is missing, and the
// re-read job (processing/reread-unavailable.ts) reads waiting receipts again once it is there.
// The Debian packages that bring them are listed in scripts/system-packages.mjs.

/** Tesseract's language models the reader asks for (docs/receipts-extraction.md). */
export const OCR_LANGUAGES = ['eng', 'deu', 'fra', 'nld', 'spa', 'ita', 'por'] as const;

export interface ReaderStatus {
  pdfText: boolean;
  pdfImages: boolean;
  ocr: boolean;
  /** The wanted OCR languages that are installed (empty without Tesseract). */
  ocrLanguages: string[];
  /** What is missing, in words an operator can act on (`tesseract`, `tesseract language deu`). */
  missing: string[];
}

const MAX_AGE_MS = 60_000;
let cached: { at: number; status: Promise<ReaderStatus> } | undefined;

function installedLanguages(): Promise<Set<string>> {
  return new Promise((resolve) => {
    execFile('tesseract', ['--list-langs'], { timeout: 10_000 }, (_error, stdout, stderr) => {
      // The first line is a heading; each further line is one installed model.
      resolve(new Set(`${stdout}\n${stderr}`.split(/\r?\n/).map((line) => line.trim())));
    });
  });
}

async function probe(): Promise<ReaderStatus> {
  const pdfText = hasCommand('pdftotext');
  const pdfImages = hasCommand('pdftoppm');
  const ocr = hasCommand('tesseract');
  const languages = ocr ? await installedLanguages() : new Set<string>();
  const ocrLanguages = OCR_LANGUAGES.filter((l) => languages.has(l));
  const missing = [
    ...(pdfText ? [] : ['pdftotext']),
    ...(pdfImages ? [] : ['pdftoppm']),
    ...(ocr ? [] : ['tesseract']),
    ...(ocr ? OCR_LANGUAGES.filter((l) => !languages.has(l)).map((l) => `tesseract language ${l}`) : []),
  ];
  return { pdfText, pdfImages, ocr: ocr && ocrLanguages.length > 0, ocrLanguages, missing };
}

/** The readers on this machine, looked up at most once a minute (a program installed later is found). */
export function readerStatus(now = Date.now()): Promise<ReaderStatus> {
  if (!cached || now - cached.at > MAX_AGE_MS) cached = { at: now, status: probe() };
  return cached.status;
}

/** Looks again at the next call (after an install; tests that change PATH). */
export function forgetReaderStatus(): void {
  cached = undefined;
  forgetCommandLookups();
}

/** One line for the start banner and the log. */
export function describeReaders(status: ReaderStatus): string {
  const read = [
    status.pdfText ? 'PDF text layers' : undefined,
    status.ocr ? `photos and scans (OCR: ${status.ocrLanguages.join(', ')})` : undefined,
  ].filter((part) => part !== undefined);
  const reads = read.length ? `reads e-invoices, ${read.join(', ')}` : 'reads e-invoices only';
  return status.missing.length
    ? `Receipts: ${reads}; missing ${status.missing.join(', ')} (scripts/system-packages.mjs names the packages; receipts that need them wait and are read once installed)`
    : `Receipts: ${reads}`;
}
