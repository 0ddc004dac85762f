// Receipt extraction benchmark, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/receipt-extraction.ts [--no-ocr] [--real-only]
//
// Runs every fixture through extractReceipt (pooled workers, as the intake will): the 15 corpus
// e-invoices, the 26 generated PDF receipts through their text layer, the same 26 rasterized to
// PNG through OCR, and the committed WebP files. Prints, per group, the share of fixtures where
// each field is exactly right, and receipts processed per second (two at a time, the pool size).
//
// Then the real receipts of ../shared/corpus/receipts (RECEIPT_CORPUS to point elsewhere), scored
// against MANIFEST.json (bench/support/receipt-corpus.ts): per class (text PDF, photo, rendered
// image, scan) the share right of total, date, currency, merchant and tax, total and date both
// right, the share `ready` and how many of those have a wrong total, date or currency, and
// receipts per second; the same for the development and held-out halves (split by file hash).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ExtractionResult, extractReceipt } from '../src/receipts/extraction/index.ts';
import {
  type CheckedField,
  checkEInvoice,
  checkedFields,
  checkFields,
} from '../test/receipts/extraction/fixtures/check.ts';
import { einvoiceCases } from '../test/receipts/extraction/fixtures/einvoices.ts';

/** The shared corpus beside the project (`../shared/corpus`), which the benchmark reads whole. */
const corpusBytes = (file: string): Buffer => readFileSync(path.resolve('..', 'shared', 'corpus', file));

import { receipts } from '../test/receipts/extraction/fixtures/receipts.ts';
import { renderReceipt } from '../test/receipts/extraction/fixtures/render.ts';
import {
  type CorpusReceipt,
  corpusDir,
  corpusReceipts,
  heldOut,
  type Score,
  scoreResult,
  wrongReady,
} from './support/receipt-corpus.ts';

interface Item {
  bytes: Buffer;
  fileName: string;
  mediaType: string;
  check: (result: ExtractionResult) => Partial<Record<CheckedField, boolean>>;
}

const withOcr = !process.argv.includes('--no-ocr');
const realOnly = process.argv.includes('--real-only');
const dir = mkdtempSync(path.join(tmpdir(), 'receipt-bench-'));

const groups: [string, Item[]][] = [];
if (!realOnly)
  groups.push([
    'e-invoices (XML, Factur-X)',
    einvoiceCases.map((c) => ({
      bytes: corpusBytes(`einvoices/${c.file}`),
      fileName: c.file,
      mediaType: c.file.endsWith('.pdf') ? 'application/pdf' : 'application/xml',
      check: (r) => checkEInvoice(c, r),
    })),
  ]);
const pdfs: Item[] = [];
const pngs: Item[] = [];
for (const def of realOnly ? [] : receipts) {
  const pdf = await renderReceipt(def);
  pdfs.push({
    bytes: pdf,
    fileName: `${def.id}.pdf`,
    mediaType: 'application/pdf',
    check: (r) => checkFields(def, r),
  });
  if (withOcr) {
    const file = path.join(dir, `${def.id}.pdf`);
    writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', file, path.join(dir, def.id)]);
    const png = readFileSync(path.join(dir, `${def.id}.png`));
    pngs.push({
      bytes: png,
      fileName: `${def.id}.png`,
      mediaType: 'image/png',
      check: (r) => checkFields(def, r),
    });
  }
}
if (!realOnly) groups.push(['PDF text layer', pdfs]);
if (withOcr && !realOnly) {
  for (const id of ['restaurant-en-bistro', 'fuel-fr-station']) {
    const def = receipts.find((r) => r.id === id);
    if (!def) continue;
    const bytes = readFileSync(new URL(`../test/receipts/extraction/fixtures/${id}.webp`, import.meta.url));
    pngs.push({ bytes, fileName: `${id}.webp`, mediaType: 'image/webp', check: (r) => checkFields(def, r) });
  }
  groups.push(['images (OCR, PNG 200 dpi + WebP)', pngs]);
}

// Warm the pool so worker start-up is not counted as extraction time.
await Promise.all(
  [0, 1].map(() =>
    extractReceipt({
      bytes: Buffer.from('<?xml version="1.0"?><a/>'),
      fileName: 'w.xml',
      mediaType: 'application/xml',
    }),
  ),
);

const rows: string[] = [];
const header = `| field | ${groups.map(([name]) => name).join(' | ')} |`;
const results = new Map<
  string,
  { perField: Map<CheckedField, [number, number]>; perSecond: number; ready: number; n: number }
>();
for (const [name, items] of groups) {
  const perField = new Map<CheckedField, [number, number]>();
  let ready = 0;
  const started = process.hrtime.bigint();
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (!item) break;
      const result = await extractReceipt(item);
      if (result.status === 'ready') ready++;
      for (const [field, right] of Object.entries(item.check(result)) as [CheckedField, boolean][]) {
        const [ok, all] = perField.get(field) ?? [0, 0];
        perField.set(field, [ok + (right ? 1 : 0), all + 1]);
      }
    }
  };
  await Promise.all([lane(), lane()]);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  results.set(name, { perField, perSecond: items.length / seconds, ready, n: items.length });
}
rows.push(header, `|---|${groups.map(() => '---:').join('|')}|`);
for (const field of checkedFields) {
  const cells = groups.map(([name]) => {
    const cell = results.get(name)?.perField.get(field);
    return cell ? `${Math.round((100 * cell[0]) / cell[1])}% (${cell[0]}/${cell[1]})` : '-';
  });
  rows.push(`| ${field} | ${cells.join(' | ')} |`);
}
rows.push(
  `| status ready | ${groups
    .map(([name]) => {
      const r = results.get(name);
      return r ? `${r.ready}/${r.n}` : '-';
    })
    .join(' | ')} |`,
);
rows.push(
  `| receipts per second | ${groups.map(([name]) => (results.get(name)?.perSecond ?? 0).toFixed(1)).join(' | ')} |`,
);
if (!realOnly) console.log(rows.join('\n'));
rmSync(dir, { recursive: true, force: true });
await benchRealReceipts();

async function benchRealReceipts(): Promise<void> {
  const corpus = corpusReceipts().filter((r) => withOcr || r.class === 'pdf_text');
  const classOf = (r: CorpusReceipt) => (r.class === 'screenshot' ? 'render' : r.class);
  const outcomes: { r: CorpusReceipt; score: Score; ready: boolean; wrong: boolean; seconds: number }[] = [];
  // One class at a time, two lanes (the pool size), so receipts per second is per class.
  for (const cls of ['pdf_text', 'photo', 'render', 'pdf_scan']) {
    const items = corpus.filter((r) => classOf(r) === cls);
    const started = process.hrtime.bigint();
    let next = 0;
    const done: typeof outcomes = [];
    const lane = async () => {
      while (next < items.length) {
        const r = items[next++];
        if (!r) break;
        const bytes = readFileSync(path.join(corpusDir, r.file));
        const mediaType = r.file.endsWith('.pdf')
          ? 'application/pdf'
          : r.file.endsWith('.png')
            ? 'image/png'
            : 'image/jpeg';
        const result = await extractReceipt({ bytes, fileName: r.file, mediaType });
        const score = scoreResult(r, result);
        done.push({
          r,
          score,
          ready: result.status === 'ready',
          wrong: wrongReady(r, result, score),
          seconds: 0,
        });
        if (process.argv.includes('--verbose')) console.error(r.file, result.status, JSON.stringify(score));
      }
    };
    await Promise.all([lane(), lane()]);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    for (const d of done) outcomes.push({ ...d, seconds: seconds / Math.max(1, done.length) });
  }
  const pct = (a: number, b: number) => (b === 0 ? '-' : `${Math.round((100 * a) / b)}% (${a}/${b})`);
  const field = (set: typeof outcomes, key: keyof Score) => {
    const scored = set.filter((o) => o.score[key] !== undefined);
    return pct(scored.filter((o) => o.score[key]).length, scored.length);
  };
  const columns: [string, typeof outcomes][] = [
    ['text PDF', outcomes.filter((o) => classOf(o.r) === 'pdf_text')],
    ['photo', outcomes.filter((o) => classOf(o.r) === 'photo')],
    ['rendered image', outcomes.filter((o) => classOf(o.r) === 'render')],
    ['scan', outcomes.filter((o) => classOf(o.r) === 'pdf_scan')],
    ['all', outcomes],
    ['development half', outcomes.filter((o) => !heldOut(o.r))],
    ['held-out half', outcomes.filter((o) => heldOut(o.r))],
  ];
  const lines = [
    `| real receipts | ${columns.map(([name]) => name).join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    `| total and date both right | ${columns.map(([, set]) => pct(set.filter((o) => o.score.total && o.score.date).length, set.length)).join(' | ')} |`,
  ];
  for (const key of ['total', 'date', 'currency', 'merchant', 'tax'] as const)
    lines.push(`| ${key} | ${columns.map(([, set]) => field(set, key)).join(' | ')} |`);
  lines.push(
    `| ready | ${columns.map(([, set]) => pct(set.filter((o) => o.ready).length, set.length)).join(' | ')} |`,
  );
  lines.push(
    `| ready with a wrong total, date or currency | ${columns.map(([, set]) => `${set.filter((o) => o.wrong).length}`).join(' | ')} |`,
  );
  lines.push(
    `| receipts per second | ${columns
      .map(([, set]) => {
        const total = set.reduce((a, o) => a + o.seconds, 0);
        return total > 0 ? (set.length / total).toFixed(2) : '-';
      })
      .join(' | ')} |`,
  );
  console.log(`\n${lines.join('\n')}`);
}
