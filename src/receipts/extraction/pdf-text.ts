import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareForOcr } from './image-prep.ts';
import { type OcrBudget, ocrPrepared } from './ocr.ts';
import { runTool } from './tools.ts';
import { ExtractionFailure } from './types.ts';

// The PDF text layer through poppler's `pdftotext -layout`, in a child process: it keeps each
// visual line on one text line (columns stay apart, "Total .... 12.00" stays together), which
// the line-based heuristics need, and a hostile PDF can only hurt a process we kill on timeout.
// pdfjs-dist would run the parser inside our worker and give positioned fragments to re-join.

const MAX_PAGES = 10;
const OCR_PAGES = 3;

export async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'receipt-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ToolBudget {
  deadline: number;
  maxOutputBytes: number;
}

function remaining(budget: ToolBudget): number {
  return Math.max(100, budget.deadline - Date.now());
}

/** Page texts (form feeds split pages); the last empty chunk after the final form feed is dropped. */
export async function pdfPageTexts(pdf: Buffer, budget: ToolBudget): Promise<string[]> {
  return withTempDir(async (dir) => {
    const file = path.join(dir, 'in.pdf');
    await writeFile(file, pdf);
    const out = await runTool('pdftotext', ['-layout', '-enc', 'UTF-8', '-l', String(MAX_PAGES), file, '-'], {
      timeoutMs: remaining(budget),
      maxOutputBytes: budget.maxOutputBytes,
    });
    const pages = out.toString('utf8').split('\f');
    if (pages.length > 1 && pages[pages.length - 1]?.trim() === '') pages.pop();
    return pages;
  });
}

/** OCR of an image: prepared (orientation, crop, scale), then read in passes (ocr.ts). */
export async function ocrImage(image: Buffer, maxPixels: number, budget: ToolBudget): Promise<string[]> {
  return withTempDir(async (dir) =>
    ocrPrepared(await prepare(image, maxPixels), dir, 'in', ocrBudget(budget)),
  );
}

async function prepare(image: Buffer, maxPixels: number) {
  try {
    return await prepareForOcr(image, maxPixels);
  } catch (err) {
    if (err instanceof ExtractionFailure) throw err;
    throw new ExtractionFailure('corrupt_file', `image cannot be decoded: ${(err as Error).message}`);
  }
}

function ocrBudget(budget: ToolBudget): OcrBudget {
  return { timeLeft: () => remaining(budget), maxOutputBytes: budget.maxOutputBytes };
}

/**
 * A scanned PDF: the first pages rendered at 200 dpi (the long side capped so a huge MediaBox
 * cannot flood), each prepared and read like an image. Returns every reading of every page.
 */
export async function ocrPdf(pdf: Buffer, maxPixels: number, budget: ToolBudget): Promise<string[]> {
  return withTempDir(async (dir) => {
    const file = path.join(dir, 'in.pdf');
    await writeFile(file, pdf);
    await runTool(
      'pdftoppm',
      ['-r', '200', '-scale-to', '2400', '-png', '-l', String(OCR_PAGES), file, path.join(dir, 'page')],
      { timeoutMs: remaining(budget), maxOutputBytes: budget.maxOutputBytes },
    );
    const images = (await readdir(dir)).filter((f) => f.startsWith('page')).sort();
    const pages: string[] = [];
    for (const [index, image] of images.entries()) {
      const prepared = await prepare(await readFile(path.join(dir, image)), maxPixels);
      pages.push(...(await ocrPrepared(prepared, dir, `prep${index}`, ocrBudget(budget))));
    }
    return pages;
  });
}
