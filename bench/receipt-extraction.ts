// Receipt extraction benchmark, run by hand (results go to docs/benchmarks.md):
//
//   node --import tsx bench/receipt-extraction.ts [--no-ocr]
//
// Runs every fixture through extractReceipt (pooled workers, as the intake will): the 15 corpus
// e-invoices, the 26 generated PDF receipts through their text layer, the same 26 rasterized to
// PNG through OCR, and the committed WebP files. Prints, per group, the share of fixtures where
// each field is exactly right, and receipts processed per second (two at a time, the pool size).
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

interface Item {
  bytes: Buffer;
  fileName: string;
  mediaType: string;
  check: (result: ExtractionResult) => Partial<Record<CheckedField, boolean>>;
}

const withOcr = !process.argv.includes('--no-ocr');
const dir = mkdtempSync(path.join(tmpdir(), 'receipt-bench-'));

const groups: [string, Item[]][] = [];
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
for (const def of receipts) {
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
groups.push(['PDF text layer', pdfs]);
if (withOcr) {
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
      bytes: corpusBytes(`einvoices/${einvoiceCases[0]?.file ?? ''}`),
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
console.log(rows.join('\n'));
rmSync(dir, { recursive: true, force: true });
