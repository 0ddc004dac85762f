import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { eraseRules, paperBox, prepareForOcr } from '../../../src/receipts/extraction/image-prep.ts';
import { extractReceipt } from '../../../src/receipts/extraction/index.ts';
import { guessLanguage } from '../../../src/receipts/extraction/ocr.ts';
import { hasCommand } from '../../../src/receipts/extraction/tools.ts';

// Image preparation and OCR on receipts of our own: one till slip per language (drawn with
// pdfkit, rasterized with pdftoppm), the same slip turned sideways, shrunk to a 300 px wide
// image, and laid on a dark table like a phone photo. Total, date and currency must come out.

const dir = mkdtempSync(path.join(tmpdir(), 'receipt-ocr-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const ocr = hasCommand('tesseract');

interface Slip {
  lang: string;
  lines: [string, string][];
  total: bigint;
  date: string;
  currency: string;
}

const slips: Slip[] = [
  {
    lang: 'en',
    lines: [
      ['Harbour Books Ltd', ''],
      ['Date: 14/03/2024', ''],
      ['Novel', '£12.50'],
      ['Map', '£7.50'],
      ['Subtotal', '£20.00'],
      ['VAT 0%', '£0.00'],
      ['Total', '£20.00'],
    ],
    total: 2000n,
    date: '2024-03-14',
    currency: 'GBP',
  },
  {
    lang: 'de',
    lines: [
      ['Bäckerei Sonne GmbH', ''],
      ['Datum: 14.03.2024', ''],
      ['Brot', '3,20 EUR'],
      ['Kuchen', '4,80 EUR'],
      ['Netto', '7,48 EUR'],
      ['MwSt 7%', '0,52 EUR'],
      ['Rechnungsbetrag', '8,00 EUR'],
    ],
    total: 800n,
    date: '2024-03-14',
    currency: 'EUR',
  },
  {
    lang: 'fr',
    lines: [
      ['Café du Port SARL', ''],
      ['Le 14 mars 2024', ''],
      ['Café', '2,50 €'],
      ['Croissant', '1,50 €'],
      ['Total HT', '3,64 €'],
      ['TVA 10%', '0,36 €'],
      ['Total TTC', '4,00 €'],
    ],
    total: 400n,
    date: '2024-03-14',
    currency: 'EUR',
  },
  {
    lang: 'nl',
    lines: [
      ['Bakkerij Jansen B.V.', ''],
      ['Datum: 14-03-2024', ''],
      ['Brood', '€ 2,50'],
      ['Koffie', '€ 3,00'],
      ['Subtotaal', '€ 5,05'],
      ['BTW 9%', '€ 0,45'],
      ['Totaal', '€ 5,50'],
    ],
    total: 550n,
    date: '2024-03-14',
    currency: 'EUR',
  },
  {
    lang: 'es',
    lines: [
      ['Bar Sol S.L.', ''],
      ['Fecha: 14 de marzo de 2024', ''],
      ['Refresco', '3,50 €'],
      ['Menú', '15,90 €'],
      ['Base imponible', '17,64 €'],
      ['IVA 10%', '1,76 €'],
      ['TOTAL A PAGAR', '19,40 €'],
    ],
    total: 1940n,
    date: '2024-03-14',
    currency: 'EUR',
  },
  {
    lang: 'it',
    lines: [
      ['Trattoria Roma S.r.l.', ''],
      ['Data: 14/03/2024', ''],
      ['Pizza', '9,00 EUR'],
      ['Acqua', '2,00 EUR'],
      ['Imponibile', '10,00 EUR'],
      ['IVA 10%', '1,00 EUR'],
      ['Totale', '11,00 EUR'],
    ],
    total: 1100n,
    date: '2024-03-14',
    currency: 'EUR',
  },
  {
    lang: 'pt',
    lines: [
      ['Padaria Lisboa Lda', ''],
      ['Data: 14-03-2024', ''],
      ['Pão', '1,20 €'],
      ['Café', '0,80 €'],
      ['Subtotal', '1,63 €'],
      ['IVA 23%', '0,37 €'],
      ['Total a pagar', '2,00 €'],
    ],
    total: 200n,
    date: '2024-03-14',
    currency: 'EUR',
  },
];

/** A till slip 80 mm wide, rasterized at 200 dpi (PNG). */
async function slipImage(slip: Slip): Promise<Buffer> {
  const doc = new PDFDocument({ size: [227, 60 + slip.lines.length * 22], margin: 12 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.font('Helvetica').fontSize(11);
  slip.lines.forEach(([label, amount], i) => {
    const y = 20 + i * 22;
    doc.text(label, 12, y, { lineBreak: false });
    if (amount) doc.text(amount, 140, y, { width: 75, align: 'right', lineBreak: false });
  });
  doc.end();
  await done;
  const file = path.join(dir, `${slip.lang}.pdf`);
  writeFileSync(file, Buffer.concat(chunks));
  execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', file, path.join(dir, slip.lang)]);
  return readFileSync(path.join(dir, `${slip.lang}.png`));
}

async function check(image: Buffer, slip: Slip, name: string) {
  const result = await extractReceipt({ bytes: image, fileName: `${name}.png`, mediaType: 'image/png' });
  assert.ok(result.status !== 'failed', result.status === 'failed' ? result.reason : '');
  assert.equal(result.fields.totalMinor?.value, slip.total, `total of ${name}`);
  assert.equal(result.fields.date?.value, slip.date, `date of ${name}`);
  assert.equal(result.fields.currency?.value, slip.currency, `currency of ${name}`);
}

describe('receipts extraction: OCR of generated slips', {
  skip: !ocr && 'tesseract is not installed',
}, () => {
  for (const slip of slips) {
    it(`reads a ${slip.lang} slip`, async () => {
      await check(await slipImage(slip), slip, slip.lang);
    });
  }

  const de = slips[1] as Slip;
  it('turns a sideways scan upright (orientation detection)', async () => {
    const turned = await sharp(await slipImage(de))
      .rotate(90)
      .png()
      .toBuffer();
    await check(turned, de, 'de-rotated');
  });

  it('upscales a small image (a 300 px wide slip)', async () => {
    const small = await sharp(await slipImage(de))
      .resize({ width: 300 })
      .png()
      .toBuffer();
    await check(small, de, 'de-small');
  });

  it('reads a slip photographed on a dark table (paper cropped out)', async () => {
    const image = await slipImage(de);
    const meta = await sharp(image).metadata();
    const width = (meta.width ?? 0) * 2;
    const height = Math.round((meta.height ?? 0) * 1.4);
    const photo = await sharp({ create: { width, height, channels: 3, background: '#4a3b2c' } })
      .composite([{ input: image, left: Math.round(width / 4), top: Math.round(height / 7) }])
      .jpeg()
      .toBuffer();
    const result = await extractReceipt({ bytes: photo, fileName: 'photo.jpg', mediaType: 'image/jpeg' });
    assert.ok(result.status !== 'failed');
    assert.equal(result.fields.totalMinor?.value, de.total);
  });
});

describe('receipts extraction: image preparation', () => {
  it('finds the paper on a darker background, and nothing to crop on a page', async () => {
    const width = 400;
    const height = 600;
    const gray = Buffer.alloc(width * height, 70);
    // White paper with dark "print" rows inside.
    for (let y = 100; y < 500; y++)
      for (let x = 120; x < 280; x++) gray[y * width + x] = y % 20 < 4 && x > 140 && x < 260 ? 20 : 245;
    const box = paperBox(gray, width, height);
    assert.ok(box, 'a box');
    assert.ok(box.left <= 120 && box.left >= 100 && box.left + box.width >= 280, JSON.stringify(box));
    assert.ok(box.top <= 100 && box.top + box.height >= 500, JSON.stringify(box));
    assert.ok(box.safe);
    const page = Buffer.alloc(width * height, 250);
    for (let y = 50; y < 550; y += 20) for (let x = 40; x < 360; x++) page[y * width + x] = 10;
    assert.equal(paperBox(page, width, height), undefined);
  });

  it('erases table rules but keeps letter strokes', () => {
    const width = 600;
    const height = 200;
    const gray = Buffer.alloc(width * height, 255);
    for (let x = 10; x < 590; x++) gray[100 * width + x] = 0; // a rule across the table
    for (let y = 60; y < 90; y++) gray[y * width + 50] = 0; // the stem of a letter, 30 px
    eraseRules(gray, width, height);
    assert.equal(gray[100 * width + 300], 255);
    assert.equal(gray[75 * width + 50], 0);
  });

  it('upscales small images and refuses images over the pixel bound', async () => {
    const small = await sharp({ create: { width: 300, height: 900, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const prepared = await prepareForOcr(small, 40_000_000);
    assert.ok(prepared.width >= 800, `${prepared.width}`);
    await assert.rejects(prepareForOcr(small, 100_000));
  });

  it('guesses the language of a first reading for the second pass', () => {
    assert.equal(guessLanguage('Subtotaal 5,05\nBTW 9% 0,45\nTotaal 5,50\nBedankt voor uw bezoek'), 'nld');
    assert.equal(guessLanguage('Summe 8,00\nMwSt 7%\nVielen Dank für Ihren Einkauf'), 'deu');
    assert.equal(guessLanguage('Total 20.00\nThank you'), 'eng');
  });
});
