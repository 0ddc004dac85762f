import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runTool } from './tools.ts';

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

export async function ocrImage(image: Buffer, ext: string, budget: ToolBudget): Promise<string> {
  return withTempDir(async (dir) => {
    const file = path.join(dir, `in.${ext}`);
    await writeFile(file, image);
    return ocrFile(file, budget);
  });
}

async function ocrFile(file: string, budget: ToolBudget): Promise<string> {
  // psm 4: one column of lines of varying size, the shape of a receipt.
  const out = await runTool('tesseract', [file, 'stdout', '-l', 'eng', '--psm', '4'], {
    timeoutMs: remaining(budget),
    maxOutputBytes: budget.maxOutputBytes,
  });
  return out.toString('utf8');
}

/** A scanned PDF: the first pages rendered at 200 dpi, the long side capped so a huge MediaBox cannot flood. */
export async function ocrPdf(pdf: Buffer, budget: ToolBudget): Promise<string[]> {
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
    for (const image of images) pages.push(await ocrFile(path.join(dir, image), budget));
    return pages;
  });
}
